package org.iwarp4j.tools.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * SIGINT and SIGTERM as a request to stop, for a server that runs until killed: while a stop action is registered,
 * the signals run it instead of ending the JVM, so the server shuts down cleanly and exits with 0, as a daemon
 * should. Without registrations the JVM's own handling (exit 130/143) is back.
 *
 * <p>The JDK's only signal API is {@code sun.misc.Signal} (module {@code jdk.unsupported}); it is reached by
 * reflection so the build stays free of javac's proprietary-API warning. Where it is missing, signals keep the JVM's
 * default and {@link #onSignal} returns a registration that does nothing.
 */
public final class Termination implements AutoCloseable {

    private static final String[] SIGNALS = {"INT", "TERM"};
    private static final Set<Runnable> ACTIONS = new LinkedHashSet<>();
    /** The handlers replaced while actions are registered, by signal name. */
    private static final Map<String, Object> PREVIOUS = new LinkedHashMap<>();

    private final Runnable action;

    private Termination(Runnable action) {
        this.action = action;
    }

    /** Runs {@code stop} on SIGINT or SIGTERM until the returned registration is closed. */
    public static Termination onSignal(Runnable stop) {
        synchronized (ACTIONS) {
            if (ACTIONS.isEmpty()) {
                install();
            }
            ACTIONS.add(stop);
        }
        return new Termination(stop);
    }

    @Override
    public void close() {
        synchronized (ACTIONS) {
            if (ACTIONS.remove(action) && ACTIONS.isEmpty()) {
                restore();
            }
        }
    }

    private static void signalled() {
        Runnable[] actions;
        synchronized (ACTIONS) {
            actions = ACTIONS.toArray(Runnable[]::new);
        }
        for (Runnable a : actions) {
            a.run();
        }
    }

    private static void install() {
        try {
            Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
            InvocationHandler onSignal = (proxy, method, args) -> switch (method.getName()) {
                case "handle" -> {
                    signalled();
                    yield null;
                }
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                default -> "stop on signal";
            };
            Object handler = Proxy.newProxyInstance(Termination.class.getClassLoader(), new Class<?>[] {handlerType},
                    onSignal);
            for (String name : SIGNALS) {
                PREVIOUS.put(name, handle(name, handler));
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            restore(); // the JVM's defaults: the server still ends on a signal, only less tidily
        }
    }

    private static void restore() {
        for (Map.Entry<String, Object> e : PREVIOUS.entrySet()) {
            try {
                handle(e.getKey(), e.getValue());
            } catch (ReflectiveOperationException | RuntimeException ignored) {
                // nothing better to restore
            }
        }
        PREVIOUS.clear();
    }

    /** {@code Signal.handle(new Signal(name), handler)}: the handler it replaces. */
    private static Object handle(String name, Object handler) throws ReflectiveOperationException {
        Class<?> signalType = Class.forName("sun.misc.Signal");
        Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
        Object signal = signalType.getConstructor(String.class).newInstance(name);
        Method handle = signalType.getMethod("handle", signalType, handlerType);
        return handle.invoke(null, signal, handler);
    }
}
