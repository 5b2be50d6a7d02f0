package org.iwarp4j.verbs;

import org.iwarp4j.verbs.cm.CmEvent;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public verbs API names only its own types, the JDK's and {@code org.iwarp4j.common}'s: no MPA, DDP or
 * RDMAP type, no Netty type (those are behind {@code org.iwarp4j.verbs.netty}, the explicit Netty extra), no
 * implementation type.
 */
class ApiSurfaceTest {

    private static final List<String> FORBIDDEN = List.of("org.iwarp4j.mpa.", "org.iwarp4j.rdmap.", "org.iwarp4j.ddp.",
            "io.netty.", "org.iwarp4j.verbs.internal.");

    private static List<Class<?>> apiClasses() throws IOException, ClassNotFoundException {
        List<Class<?>> out = new ArrayList<>();
        for (String pkg : List.of("org/iwarp4j/verbs", "org/iwarp4j/verbs/cm")) {
            Path dir = Path.of("src/main/java").resolve(pkg);
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String name = f.getFileName().toString().replace(".java", "");
                    if (!name.equals("package-info")) {
                        Class<?> c = Class.forName(pkg.replace('/', '.') + "." + name);
                        collect(c, out);
                    }
                }
            }
        }
        return out;
    }

    private static void collect(Class<?> c, List<Class<?>> out) {
        if (Modifier.isPublic(c.getModifiers())) {
            out.add(c);
            for (Class<?> nested : c.getDeclaredClasses()) {
                collect(nested, out);
            }
        }
    }

    private static void check(Type t, String where, List<String> bad) {
        if (t instanceof Class<?> c) {
            while (c.isArray()) {
                c = c.getComponentType();
            }
            String n = c.getName();
            for (String f : FORBIDDEN) {
                if (n.startsWith(f)) {
                    bad.add(where + " uses " + n);
                }
            }
        } else if (t instanceof ParameterizedType p) {
            check(p.getRawType(), where, bad);
            for (Type a : p.getActualTypeArguments()) {
                check(a, where, bad);
            }
        } else if (t instanceof WildcardType w) {
            for (Type b : w.getUpperBounds()) {
                check(b, where, bad);
            }
            for (Type b : w.getLowerBounds()) {
                check(b, where, bad);
            }
        } else if (t instanceof GenericArrayType g) {
            check(g.getGenericComponentType(), where, bad);
        }
    }

    @Test
    void thePublicApiExposesNoLowerLayerNettyOrImplementationType() throws Exception {
        List<Class<?>> api = apiClasses();
        assertThat(api).contains(Rnic.class, CmEvent.Disconnected.class, SendWorkRequest.BindMemoryWindow.class);
        List<String> bad = new ArrayList<>();
        for (Class<?> c : api) {
            check(c.getGenericSuperclass(), c.getName(), bad);
            for (Type i : c.getGenericInterfaces()) {
                check(i, c.getName(), bad);
            }
            for (Method m : c.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers())) {
                    String where = c.getName() + "." + m.getName();
                    check(m.getGenericReturnType(), where, bad);
                    for (Type p : m.getGenericParameterTypes()) {
                        check(p, where, bad);
                    }
                    for (Type e : m.getGenericExceptionTypes()) {
                        check(e, where, bad);
                    }
                }
            }
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (Modifier.isPublic(k.getModifiers()) || Modifier.isProtected(k.getModifiers())) {
                    for (Type p : k.getGenericParameterTypes()) {
                        check(p, c.getName() + ".<init>", bad);
                    }
                }
            }
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isPublic(f.getModifiers()) || Modifier.isProtected(f.getModifiers())) {
                    check(f.getGenericType(), c.getName() + "." + f.getName(), bad);
                }
            }
        }
        assertThat(bad).isEmpty();
    }

    @Test
    void theApiSourcesImportNoLowerLayerOrNettyType() throws IOException {
        List<String> bad = new ArrayList<>();
        for (String pkg : List.of("org/iwarp4j/verbs", "org/iwarp4j/verbs/cm")) {
            try (Stream<Path> files = Files.list(Path.of("src/main/java").resolve(pkg))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    for (String line : Files.readAllLines(f)) {
                        if (line.startsWith("import ") && Stream.of("org.iwarp4j.mpa", "org.iwarp4j.rdmap",
                                "org.iwarp4j.ddp", "io.netty").anyMatch(line::contains)) {
                            bad.add(f.getFileName() + ": " + line);
                        }
                    }
                }
            }
        }
        assertThat(bad).isEmpty();
    }
}
