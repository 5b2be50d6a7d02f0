package org.iwarp4j.tools.conformance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.FpduStreamDecoder;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.oracle.StartupFrame;

/**
 * Our end of one TCP connection to the peer under test: blocking reads bounded by a deadline, writes, the MPA
 * framing of Full Operation (the oracle's, {@link FpduFraming}), and a transcript of both directions for the
 * report. Used by one check's thread only.
 */
final class Wire implements AutoCloseable {

    /**
     * What a read found instead of what it wanted. FLOOD: the peer sent more than {@link #MAX_RECEIVED} octets
     * on one connection and the tool stopped reading (nothing a peer sends makes the tool hold without bound).
     */
    enum End {
        FIN, RST, TIMEOUT, FLOOD;

        /** The peer closed the connection (FIN) or reset it (RST). */
        boolean closed() {
            return this == FIN || this == RST;
        }
    }

    /** The most octets one check reads from the peer; checks need a few kilobytes. */
    static final int MAX_RECEIVED = 8 << 20;
    /** The most octets the transcript keeps; later events keep their label and length only. */
    static final int MAX_TRANSCRIPT = 1 << 20;
    /** The most events the transcript lists; later FPDUs are only counted. */
    static final int MAX_EVENTS = 200;

    /** One entry of the transcript: who sent it, when (ms since the connection began), its octets, a label. */
    record Event(boolean fromPeer, long millis, byte[] octets, String label) {}

    /** The result of waiting for an FPDU: one arrived, or the stream ended, or the deadline passed. */
    record Next(DecodedFpdu fpdu, End end) {
        boolean isFpdu() {
            return fpdu != null;
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final long start = System.nanoTime();
    private final List<Event> transcript = new ArrayList<>();
    private final ByteArrayOutputStream unread = new ByteArrayOutputStream();
    private final Deque<DecodedFpdu> decoded = new ArrayDeque<>();
    private FpduFraming tx;
    private FpduStreamDecoder rx;
    private End ended;
    private long received;
    private long kept;
    private int unlisted;

    Wire(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Both directions in order; past {@link #MAX_EVENTS} FPDUs of the peer's, a count stands for the rest. */
    List<Event> transcript() {
        if (unlisted == 0) {
            return transcript;
        }
        List<Event> all = new ArrayList<>(transcript);
        all.add(new Event(true, millis(), new byte[0], "… and " + unlisted + " more FPDUs, not listed"));
        return all;
    }

    long millis() {
        return (System.nanoTime() - start) / 1_000_000;
    }

    void send(byte[] octets, String label) throws IOException {
        transcript.add(new Event(false, millis(), octets.clone(), label));
        out.write(octets);
        out.flush();
    }

    /** Sends {@code octets} one small piece at a time (each its own TCP segment, TCP_NODELAY). */
    void sendInPieces(byte[] octets, int piece, String label) throws IOException {
        transcript.add(new Event(false, millis(), octets.clone(), label + " (in " + piece + "-octet writes)"));
        for (int i = 0; i < octets.length; i += piece) {
            out.write(octets, i, Math.min(piece, octets.length - i));
            out.flush();
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
    }

    void shutdownOutput() throws IOException {
        transcript.add(new Event(false, millis(), new byte[0], "FIN"));
        socket.shutdownOutput();
    }

    /** Ends the connection with RST (SO_LINGER 0). */
    void reset() {
        try {
            if (!socket.isClosed()) {
                transcript.add(new Event(false, millis(), new byte[0], "RST"));
                socket.setSoLinger(true, 0);
                socket.close();
            }
        } catch (IOException ignored) {
            // already gone
        }
    }

    private void record(byte[] octets, String label) {
        if (transcript.size() >= MAX_EVENTS) {
            unlisted++;
            return;
        }
        kept += octets.length;
        transcript.add(kept <= MAX_TRANSCRIPT ? new Event(true, millis(), octets, label)
                : new Event(true, millis(), new byte[0], label + " of " + octets.length + " octets (not kept)"));
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    /** Reads what is there (at most one read), waiting until {@code deadline}; false when the stream ended. */
    private boolean fill(long deadline) throws IOException {
        if (ended != null) {
            return false;
        }
        long ms = (deadline - System.nanoTime()) / 1_000_000;
        if (ms <= 0) {
            return false;
        }
        byte[] b = new byte[65536];
        int r;
        try {
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, ms));
            r = in.read(b);
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            ended = End.RST;
            transcript.add(new Event(true, millis(), new byte[0], "RST"));
            return false;
        }
        if (r < 0) {
            ended = End.FIN;
            transcript.add(new Event(true, millis(), new byte[0], "FIN"));
            return false;
        }
        byte[] got = Arrays.copyOf(b, r);
        received += r;
        if (received > MAX_RECEIVED) {
            ended = End.FLOOD;
            transcript.add(new Event(true, millis(), new byte[0], "more than " + MAX_RECEIVED
                    + " octets: the tool stopped reading"));
            close();
            return false;
        }
        if (rx != null) {
            for (DecodedFpdu f : rx.feed(got)) {
                decoded.add(f);
                record(f.wire(), "FPDU");
            }
        } else {
            unread.write(got, 0, r);
        }
        return true;
    }

    /** Waits for the end of the stream (reading whatever comes): FIN, RST, or TIMEOUT at the deadline. */
    End awaitEnd(long deadline) throws IOException {
        while (ended == null && System.nanoTime() - deadline < 0) {
            fill(deadline);
        }
        return ended != null ? ended : End.TIMEOUT;
    }

    /** How the stream ended, if it did (null while open). */
    End ended() {
        return ended;
    }

    /** Octets received before Full Operation and not yet consumed as a startup frame. */
    byte[] unreadOctets() {
        return unread.toByteArray();
    }

    /**
     * Waits for an MPA startup frame (RFC 5044 §7.1): its 20-octet header and PD_Length octets of private
     * data. Returns the frame, or null with {@link #ended()} telling why (null = timed out, or octets that are
     * no frame: see {@link #unreadOctets()}).
     */
    StartupFrame readFrame(long deadline) throws IOException {
        while (true) {
            byte[] have = unread.toByteArray();
            if (have.length >= StartupFrame.HEADER_LENGTH) {
                int pd = (have[18] & 0xFF) << 8 | (have[19] & 0xFF);
                boolean keyOk = Arrays.equals(have, 0, 16, StartupFrame.REQUEST_KEY, 0, 16)
                        || Arrays.equals(have, 0, 16, StartupFrame.REPLY_KEY, 0, 16);
                if (!keyOk) {
                    return null;
                }
                if (have.length >= StartupFrame.HEADER_LENGTH + pd) {
                    byte[] frame = Arrays.copyOf(have, StartupFrame.HEADER_LENGTH + pd);
                    unread.reset();
                    unread.write(have, frame.length, have.length - frame.length);
                    StartupFrame f = StartupFrame.parse(frame);
                    transcript.add(new Event(true, millis(), frame, f.isRequest() ? "MPA Request" : "MPA Reply"));
                    return f;
                }
            }
            if (!fill(deadline)) {
                if (ended == null && System.nanoTime() - deadline < 0) {
                    continue;
                }
                if (have.length > 0) {
                    transcript.add(new Event(true, millis(), have, "incomplete startup frame"));
                }
                return null;
            }
        }
    }

    /**
     * Enters Full Operation: FPDUs from now on, framed both ways by the oracle. Octets that followed the
     * startup frame are the first FPDU octets.
     */
    void fullOperation(boolean crc, boolean markersWeSend, boolean markersPeerSends) {
        tx = new FpduFraming(crc, markersWeSend, 0);
        rx = new FpduStreamDecoder(new FpduFraming(crc, markersPeerSends, 0));
        byte[] early = unread.toByteArray();
        unread.reset();
        if (early.length > 0) {
            for (DecodedFpdu f : rx.feed(early)) {
                decoded.add(f);
                record(f.wire(), "FPDU");
            }
        }
    }

    boolean inFullOperation() {
        return tx != null;
    }

    /** The octets of an FPDU carrying {@code ulpdu} with {@code tamper}; advances our stream offset. */
    byte[] frame(byte[] ulpdu, FpduTamper tamper) {
        return tx.encode(ulpdu, tamper);
    }

    void sendFpdu(byte[] ulpdu, String label) throws IOException {
        sendFpdu(ulpdu, FpduTamper.NONE, label);
    }

    void sendFpdu(byte[] ulpdu, FpduTamper tamper, String label) throws IOException {
        send(tx.encode(ulpdu, tamper), label);
    }

    /** The next FPDU from the peer, or how the stream ended, or TIMEOUT at the deadline. */
    Next nextFpdu(long deadline) throws IOException {
        while (decoded.isEmpty()) {
            if (!fill(deadline)) {
                if (ended != null) {
                    return new Next(null, ended);
                }
                if (System.nanoTime() - deadline >= 0) {
                    return new Next(null, End.TIMEOUT);
                }
            }
        }
        return new Next(decoded.poll(), null);
    }

    /** Octets of an FPDU the peer began but did not finish (waiting for the rest). */
    int pendingFpduOctets() {
        return rx == null ? unread.size() : rx.pendingOctets();
    }
}
