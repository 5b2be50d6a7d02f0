package org.iwarp4j.mpa.netty;

import io.netty.channel.Channel;
import org.iwarp4j.mpa.Mulpdu;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the effective MSS of a connection for MULPDU (RFC 5044 §4.5): the configured value, else
 * what the transport can tell (Netty's epoll transport exposes {@code TCP_INFO} {@code snd_mss}
 * through {@code EpollSocketChannel.tcpInfo().sndMss()}; found reflectively so that {@code mpa}
 * needs no epoll dependency), else {@link Mulpdu#DEFAULT_EMSS} (1460).
 */
final class EmssProbe {

    private static final Map<Class<?>, Method> TCP_INFO = new ConcurrentHashMap<>();
    /** {@code sndMss()} of each TCP info class, looked up once ({@code getMethod} copies the method each call). */
    private static final Map<Class<?>, Method> SND_MSS = new ConcurrentHashMap<>();
    private static final Method NONE;

    static {
        try {
            NONE = Object.class.getMethod("hashCode");
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private EmssProbe() {}

    static int emss(Channel channel, int configured) {
        if (configured > 0) {
            return configured;
        }
        int mss = fromTcpInfo(channel);
        return mss > 0 ? mss : Mulpdu.DEFAULT_EMSS;
    }

    private static int fromTcpInfo(Channel channel) {
        Method tcpInfo = TCP_INFO.computeIfAbsent(channel.getClass(), c -> {
            try {
                Method m = c.getMethod("tcpInfo");
                return m.getParameterCount() == 0 ? m : NONE;
            } catch (NoSuchMethodException | SecurityException e) {
                return NONE;
            }
        });
        if (tcpInfo == NONE || !channel.isActive()) {
            return -1;
        }
        try {
            Object info = tcpInfo.invoke(channel);
            Method sndMss = SND_MSS.computeIfAbsent(info.getClass(), c -> {
                try {
                    return c.getMethod("sndMss");
                } catch (NoSuchMethodException | SecurityException e) {
                    return NONE;
                }
            });
            if (sndMss == NONE) {
                return -1;
            }
            Object mss = sndMss.invoke(info);
            return mss instanceof Number n ? (int) Math.min(Integer.MAX_VALUE, n.longValue()) : -1;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return -1;
        }
    }
}
