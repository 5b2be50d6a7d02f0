package org.iwarp4j.tools.cli;

import java.util.HexFormat;
import java.util.OptionalInt;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectionParameters;
import org.iwarp4j.verbs.cm.ConnectionRejectedException;
import org.iwarp4j.verbs.cm.ConnectionRequest;

/**
 * The small things every tool does with the stack: open an RNIC, wait for an answer, describe a failure in one line.
 */
public final class Stacks {

    private Stacks() {}

    /**
     * An RNIC for a command-line tool: one event loop (a tool drives one queue pair; a second loop would
     * only add a thread hop on a small machine), epoll when available.
     */
    public static Rnic openRnic(String name) {
        return openRnic(name, null);
    }

    /** {@link #openRnic(String)} on {@code transport} ({@code null}: epoll when available, else NIO). */
    public static Rnic openRnic(String name, Transport transport) {
        return new StackSettings(transport, false, StackSettings.DEFAULTS.outboundBufferBytes(),
                StackSettings.DEFAULTS.notSentLowat()).openRnic(name);
    }

    /**
     * What a report says of {@code rnic}'s stack: "iwarp4j, Netty EPOLL", whether its loops busy-poll, its
     * connections' outbound buffer and their sockets' unsent limit.
     */
    public static String stackName(Rnic rnic) {
        RnicConfig c = rnic.config();
        return "iwarp4j, Netty " + rnic.transport()
                + StackSettings.describeLoops(c.busyPoll(), c.outboundBufferBytes(), c.tcpNotSentLowat(),
                        rnic.transport());
    }

    /**
     * {@code future.get(seconds, TimeUnit.SECONDS)}, whose timeout says how long it waited ("no answer within 30 s")
     * for {@link #describe(Throwable)}; a failed future throws the JDK's {@link ExecutionException}, which
     * {@code describe} unwraps.
     */
    public static <T> T get(Future<T> future, long seconds)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            return future.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new TimeoutException("no answer within " + seconds + " s");
        }
    }

    /**
     * The message of {@code t}, or of the failure a future's {@code get}/{@code join} wrapped, for one-line error
     * reports. A reject names the Responder's IRD/ORD and private data (RFC 5044 §7.1.2, RFC 6581 §9.1).
     */
    public static String describe(Throwable t) {
        Throwable c = t;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        String m = c.getMessage();
        if (c instanceof ConnectionRejectedException r) {
            return "REJECTED: " + m + reply(r.privateData(), r.ird(), r.ord());
        }
        if (c instanceof TimeoutException && m == null) {
            return "no answer in time";
        }
        return m == null ? c.getClass().getSimpleName() : m;
    }

    /**
     * A listener's own reject ({@link org.iwarp4j.verbs.cm.ListenOptions#requiredOrd()}): the Initiator's IRD is
     * below the ORD this side needs, which the Reply carries (RFC 6581 §9.1); the event's reason names the
     * Initiator and its IRD.
     */
    public static String describeInsufficientIrd(CmEvent.Rejected r) {
        return "REJECTED: " + r.reason() + reply(r.privateData(), r.ird(), r.ord());
    }

    /** What a rejecting Reply carried (RFC 5044 §7.1.2, RFC 6581 §9.1). */
    private static String reply(byte[] privateData, OptionalInt ird, OptionalInt ord) {
        String data = privateData.length == 0 ? "none"
                : privateData.length + " octets " + HexFormat.of().formatHex(privateData);
        return " (Reply IRD " + depth(ird) + ", ORD " + depth(ord) + ", private data " + data + ")";
    }

    /** One line: what MPA negotiated, e.g. {@code MPA rev 2, CRC on, markers off/off, IRD 1, ORD 1, client-server}. */
    public static String describe(ConnectionParameters p) {
        return p + ", peer private data " + hexOrNone(p.peerPrivateData());
    }

    /**
     * What a connection request offers, e.g. {@code MPA revision 2, IRD 1, ORD 1, peer-to-peer false [], CRC true,
     * markers false, private data } (the private data as hex, empty when there is none).
     */
    public static String describe(ConnectionRequest r) {
        return String.format("MPA revision %d, IRD %d, ORD %d, peer-to-peer %s %s, CRC %s, markers %s, private data %s",
                r.mpaRevision(), depth(r.ird()), depth(r.ord()), r.peerToPeer(), r.offeredRtrTypes(), r.crcRequested(),
                r.markersRequested(), HexFormat.of().formatHex(r.privateData()));
    }

    /** An IRD or ORD as the tools print it: -1 when the peer sent none (no RFC 6581 enhanced data). */
    public static int depth(OptionalInt v) {
        return v.orElse(-1);
    }

    /** {@code v} capped at {@code max}; empty stays empty. */
    public static OptionalInt atMost(OptionalInt v, int max) {
        return v.isPresent() ? OptionalInt.of(Math.min(v.getAsInt(), max)) : v;
    }

    /** {@code data} as hex, or {@code none} when it is empty. */
    public static String hexOrNone(byte[] data) {
        return data.length == 0 ? "none" : HexFormat.of().formatHex(data);
    }
}
