package org.iwarp4j.testkit.peer;

import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.oracle.Hex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The peer's end of the TCP connection: blocking reads with a deadline (never reading ahead of what a
 * step asks for, so unread octets stay in the kernel and FIN/RST stay observable), writes, a transcript of
 * both directions, and the MPA state the steps share (frames exchanged, FPDU framing per direction).
 * Used only by the peer's script thread.
 */
final class PeerConnection {

    /** How a connection ended. */
    enum End { FIN, RST }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
    private volatile int stepMark;

    StartupFrame sentFrame;
    StartupFrame receivedFrame;
    FpduFraming tx;
    FpduFraming rx;

    PeerConnection(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    Socket socket() {
        return socket;
    }

    void beginStep() {
        stepMark = received.size();
    }

    /** Octets received since the current step began. */
    byte[] receivedThisStep() {
        byte[] all = received.toByteArray();
        return Arrays.copyOfRange(all, Math.min(stepMark, all.length), all.length);
    }

    byte[] received() {
        return received.toByteArray();
    }

    byte[] sent() {
        return sent.toByteArray();
    }

    /** Reads exactly {@code n} octets before {@code deadline} (System.nanoTime), or fails saying what came. */
    byte[] readExactly(int n, long deadline, String what) throws IOException {
        byte[] b = new byte[n];
        int got = 0;
        while (got < n) {
            int r;
            try {
                socket.setSoTimeout(remainingMillis(deadline, what, b, got));
                r = in.read(b, got, n - got);
            } catch (SocketTimeoutException e) {
                throw timeout(what, b, got);
            } catch (SocketException e) {
                throw new ScriptFailure(what + ": the connection was reset (RST) after " + got + " of " + n
                        + " octets: " + Hex.of(Arrays.copyOf(b, got)) + " (" + e.getMessage() + ")");
            }
            if (r < 0) {
                throw new ScriptFailure(what + ": the stack closed the connection (FIN) after " + got + " of " + n
                        + " octets: " + Hex.of(Arrays.copyOf(b, got)));
            }
            received.write(b, got, r);
            got += r;
        }
        return b;
    }

    private static int remainingMillis(long deadline, String what, byte[] b, int got) {
        long ms = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (ms <= 0) {
            throw timeout(what, b, got);
        }
        return (int) Math.min(Integer.MAX_VALUE, ms);
    }

    private static ScriptFailure timeout(String what, byte[] b, int got) {
        return new ScriptFailure(what + ": timed out with " + got + " of " + b.length + " octets: "
                + Hex.of(Arrays.copyOf(b, got)));
    }

    /**
     * Waits for the end of the inbound stream: returns FIN or RST; fails if octets arrive instead (showing
     * up to 64 of them) or nothing happens before the deadline.
     */
    End readEnd(long deadline, String what) throws IOException {
        byte[] b = new byte[64];
        int r;
        try {
            socket.setSoTimeout(remainingMillis(deadline, what, b, 0));
            r = in.read(b);
        } catch (SocketTimeoutException e) {
            throw new ScriptFailure(what + ": timed out: the connection is still open and silent");
        } catch (SocketException e) {
            return End.RST;
        }
        if (r < 0) {
            return End.FIN;
        }
        received.write(b, 0, r);
        throw new ScriptFailure(what + ": " + r + (r == b.length ? "+" : "") + " more octets arrived instead: "
                + Hex.of(Arrays.copyOf(b, r)));
    }

    int available() throws IOException {
        return in.available();
    }

    void write(byte[] octets) throws IOException {
        out.write(octets);
        out.flush();
        sent.write(octets, 0, octets.length);
    }

    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** RST: SO_LINGER 0 and close. */
    void reset() throws IOException {
        if (!socket.isClosed()) {
            socket.setSoLinger(true, 0);
            socket.close();
        }
    }

    void close() throws IOException {
        socket.close();
    }

    /**
     * After both startup frames were exchanged through frame-aware steps: the framing of Full Operation
     * (RFC 5044 §7.1.1: C=1 in either frame turns CRCs on; the M bit of a frame binds the other side).
     */
    void maybeEnterFullOperation() {
        if (sentFrame == null || receivedFrame == null || tx != null) {
            return;
        }
        StartupFrame request = sentFrame.isRequest() ? sentFrame : receivedFrame;
        StartupFrame reply = sentFrame.isRequest() ? receivedFrame : sentFrame;
        if (!request.isRequest() || !reply.isReply() || reply.rejected()) {
            return;
        }
        boolean crc = request.crc() || reply.crc();
        // The peer sends with markers if the other side's frame asked for them.
        tx = new FpduFraming(crc, receivedFrame.markers(), 0);
        rx = new FpduFraming(crc, sentFrame.markers(), 0);
    }
}
