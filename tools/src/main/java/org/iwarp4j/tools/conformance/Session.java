package org.iwarp4j.tools.conformance;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.Segment;
import org.iwarp4j.oracle.SegmentView;
import org.iwarp4j.oracle.StartupFrame;

/**
 * One check's connection to the peer: MPA startup in either role, the peer's application protocol driven as
 * far as the check needs (to learn an STag or a posted receive), and what the peer sent back. Built by the
 * {@link Runner}, used by one check body on one thread.
 */
final class Session {

    /** Our STag for the buffer we advertise to an rping peer, and the address we claim for it. */
    static final int OUR_STAG = 0x5eed0100;
    static final long OUR_ADDRESS = 0x7f0000100000L;

    /** A buffer of the peer's that its application told us about (or that a Read Request revealed). */
    record PeerBuffer(int stag, long to, int length, boolean writable, boolean readable) {}

    /** What one period of listening to the peer found: the FPDUs in order, and how it ended. */
    record Observation(List<DecodedFpdu> fpdus, Wire.End end, long endMillis) {
        SegmentView firstTerminate() {
            for (DecodedFpdu f : fpdus) {
                SegmentView v = SegmentView.parse(f.ulpdu());
                if (v.isTerminate()) {
                    return v;
                }
            }
            return null;
        }
    }

    final Role role;
    final Options options;
    final Wire wire;
    /** The startup frames, once exchanged. */
    StartupFrame ours;
    StartupFrame theirs;
    /** What the peer's application gave us. */
    PeerBuffer buffer;
    int receives;
    int receiveSize;
    /** The MSN of our next message on QN 0 and QN 1 (RFC 5041 §5.1: each queue counts from 1). */
    int sendMsn = 1;
    int readMsn = 1;
    /** {@code --app perftest}: the control exchange made for this check (before the test connection), or null. */
    PerftestExchange perftest;
    /** The largest receive of ib_send_bw the Send checks exceed in one FPDU (MPA's ULPDU_Length has 16 bits). */
    static final int MAX_PERFTEST_RECEIVE = 16384;
    /** The peer's first FPDU (initiator role), if it came. */
    DecodedFpdu peerFirst;
    private final List<DecodedFpdu> appFpdus = new ArrayList<>();

    Session(Role role, Options options, Wire wire) {
        this.role = role;
        this.options = options;
        this.wire = wire;
    }

    long deadline() {
        return deadline(options.checkTimeoutMillis());
    }

    static long deadline(long millis) {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    // ------------------------------------------------------------------ startup

    /** The Request we send unless a check says otherwise: Rev 2, S=1 with IRD/ORD, C as configured. */
    StartupFrame.Builder request() {
        return StartupFrame.request().revision(2).crc(options.crc())
                .enhanced(new StartupFrame.Enhanced(false, false, options.ird(), false, false, options.ord()));
    }

    /** The Reply we send to {@code request} unless a check says otherwise: accepting, in its form. */
    StartupFrame.Builder reply(StartupFrame request) {
        StartupFrame.Builder b = StartupFrame.reply().revision(Math.min(2, Math.max(1, request.revision())))
                .crc(request.crc() || options.crc());
        StartupFrame.Enhanced e = request.revision() == 2 ? request.enhanced() : null;
        if (e != null) {
            // RFC 6581 §9.1: our ORD at most the initiator's IRD; peer-to-peer: one RTR it offered (§9.2).
            boolean write = e.peerToPeer() && e.writeRtr();
            boolean read = e.peerToPeer() && !write && e.readRtr();
            boolean send = e.peerToPeer() && !write && !read && e.sendRtr();
            b.enhanced(new StartupFrame.Enhanced(e.peerToPeer(), send, Math.min(options.ird(), Math.max(e.ord(), 1)),
                    write, read, Math.min(options.ord(), e.ird())));
        }
        return b;
    }

    /** Responder role: sends {@code request} and waits for the Reply; null if none came (see the wire). */
    StartupFrame exchange(StartupFrame.Builder request) throws IOException {
        ours = request.build();
        wire.send(ours.toBytes(), "MPA Request");
        theirs = wire.readFrame(deadline());
        return theirs;
    }

    /** Initiator role: waits for the peer's Request; null if none came. */
    StartupFrame awaitRequest(long deadline) throws IOException {
        theirs = wire.readFrame(deadline);
        return theirs;
    }

    /** Initiator role: sends our Reply. */
    void sendReply(StartupFrame.Builder reply) throws IOException {
        ours = reply.build();
        wire.send(ours.toBytes(), "MPA Reply");
    }

    /** After an accepting exchange: Full Operation with the negotiated CRC and markers (RFC 5044 §7.1.1). */
    void enterFullOperation() {
        boolean crc = ours.crc() || theirs.crc();
        // The M bit of a frame asks the other side to send markers.
        wire.fullOperation(crc, theirs.markers(), ours.markers());
    }

    boolean crcOn() {
        return ours != null && theirs != null && (ours.crc() || theirs.crc());
    }

    /** The peer's IRD: from its enhanced block (RFC 6581 §9.1); -1 when it sent none (Rev 1 or S=0). */
    int peerIrd() {
        StartupFrame.Enhanced e = theirs == null || theirs.revision() != 2 ? null : theirs.enhanced();
        return e == null ? -1 : e.ird();
    }

    /** Our IRD as we announced it. */
    int ourIrd() {
        StartupFrame.Enhanced e = ours == null || ours.revision() != 2 ? null : ours.enhanced();
        return e == null ? 1 : e.ird();
    }

    /**
     * The ordinary startup of the role, accepting: returns null when Full Operation began, or the reason it
     * did not. Initiator role: also waits for the peer's first FPDU (we may send nothing before it, RFC 5044
     * §7.1.2 rule 4) and keeps it in {@link #peerFirst}.
     */
    String establish() throws IOException {
        if (role == Role.RESPONDER) {
            StartupFrame reply = exchange(request());
            if (reply == null) {
                return "no MPA Reply to an ordinary Request (" + endWords(wire.ended()) + ")";
            }
            if (!reply.isReply() || reply.rejected()) {
                return "the peer rejected an ordinary Request: " + reply;
            }
            enterFullOperation();
            pause(options.firstFpduDelayMillis());
            return null;
        }
        StartupFrame request = awaitRequest(deadline());
        if (request == null) {
            return "no MPA Request from the peer (" + endWords(wire.ended()) + ")";
        }
        sendReply(reply(request));
        enterFullOperation();
        Wire.Next first = wire.nextFpdu(deadline());
        if (!first.isFpdu()) {
            return "the peer sent no first FPDU after our Reply (" + endWords(first.end()) + ")";
        }
        peerFirst = first.fpdu();
        appFpdus.add(peerFirst);
        StartupFrame.Enhanced e = ours.revision() == 2 ? ours.enhanced() : null;
        if (e != null && e.peerToPeer()) {
            // RFC 6581 §9.3: that was its RTR; answer a Read RTR, then its application speaks.
            SegmentView.ReadRequest rtr = SegmentView.parse(peerFirst.ulpdu()).readRequest();
            if (rtr != null) {
                wire.sendFpdu(Segment.tagged(Segment.READ_RESPONSE, rtr.sinkStag(), rtr.sinkTo()).toBytes(),
                        "zero-length Read Response to its Read RTR");
            }
            Wire.Next next = wire.nextFpdu(deadline());
            if (!next.isFpdu()) {
                return "the peer's application sent nothing after its RTR (" + endWords(next.end()) + ")";
            }
            peerFirst = next.fpdu();
            appFpdus.add(peerFirst);
        }
        return null;
    }

    static String endWords(Wire.End end) {
        return end == null ? "octets that are no startup frame" : switch (end) {
            case FIN -> "it closed with FIN";
            case RST -> "it reset the connection";
            case TIMEOUT -> "nothing came in time";
            case FLOOD -> "it flooded the connection";
        };
    }

    static void pause(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ the application

    /**
     * Drives the peer's application until {@code needs} are met (the connection already in Full Operation):
     * null when they are, else why they cannot be (the check is then skipped).
     */
    String prepare(Set<Check.Need> needs) throws IOException {
        App app = options.app();
        boolean stag = needs.contains(Check.Need.WRITABLE_STAG) || needs.contains(Check.Need.READABLE_STAG);
        if (needs.contains(Check.Need.ECHO) && peerIrd() == 0) {
            return "the peer's IRD is 0: it answers no Read Request, so nothing shows it accepted an FPDU";
        }
        if (app == App.GENERIC && (stag || needs.contains(Check.Need.RECEIVE))) {
            return "needs " + (stag ? "an STag" : "a posted receive") + " of the peer's; --app generic knows none "
                    + "(name the peer's application with --app rping or --app rdma)";
        }
        if (app == App.PERFTEST) {
            return perftestNeeds(needs);
        }
        if (app == App.RDMA && stag) {
            return "rdma_server/rdma_client advertise no STag; --app rping does";
        }
        if (role == Role.RESPONDER) {
            receives = 1;
            receiveSize = 16;
            if (app == App.RPING && stag) {
                return rpingAsClient();
            }
            return null;
        }
        // Initiator role: the peer spoke first; rping's first Send is its source buffer's advert, rdma_client's
        // a 16-octet message. Both posted one 16-octet receive for our answer.
        SegmentView first = SegmentView.parse(peerFirst.ulpdu());
        if (app == App.RPING || app == App.RDMA) {
            if (first.tagged() || first.opcode() != Segment.SEND || first.qn() != 0) {
                return "the peer's first FPDU is not its application's Send: " + first.describe();
            }
            receives = 1;
            receiveSize = 16;
        }
        if (app == App.RPING) {
            ByteBuffer b = ByteBuffer.wrap(first.payload());
            if (b.remaining() < 16) {
                return "rping's advert should be 16 octets, got " + b.remaining();
            }
            long addr = b.getLong();
            int rkey = b.getInt();
            int len = b.getInt();
            buffer = new PeerBuffer(rkey, addr, len, true, true);
        }
        return null;
    }

    /** The perftest server's buffers ({@link #perftest}, exchanged by the {@link Runner}) as the checks need them. */
    private String perftestNeeds(Set<Check.Need> needs) {
        if (needs.isEmpty()) {
            return null; // on the first connection, which the server takes for its control connection
        }
        if (role != Role.RESPONDER) {
            return "--app perftest drives a perftest server (the peer as Responder); its client as Initiator is not "
                    + "supported";
        }
        PerftestExchange.Program p = options.perftest();
        if (perftest == null) {
            return "no perftest exchange was made for this check";
        }
        if (needs.contains(Check.Need.RECEIVE)) {
            if (p != PerftestExchange.Program.SEND) {
                return p.tool + " posts no receive on its test connection; ib_send_bw does (--perftest send)";
            }
            if (options.perftestSize() > MAX_PERFTEST_RECEIVE) {
                return "ib_send_bw's receives are " + options.perftestSize() + " octets: the checks that exceed a "
                        + "receive do it in one FPDU; run it with -s " + MAX_PERFTEST_RECEIVE + " or less";
            }
            receives = PerftestExchange.rxDepth(options.perftestIterations());
            receiveSize = options.perftestSize();
        }
        boolean write = needs.contains(Check.Need.WRITABLE_STAG);
        boolean read = needs.contains(Check.Need.READABLE_STAG);
        if (write || read) {
            buffer = perftest.buffer();
            if (buffer == null) {
                return "ib_send_bw's pingpong_dest names its credit word, not a test buffer; ib_write_bw's and "
                        + "ib_read_bw's name one (--perftest write|read)";
            }
            if (read && !buffer.readable()) {
                return p.tool + "'s buffer has no remote read access (perftest registers it for the test's own "
                        + "operation); ib_read_bw's has (--perftest read)";
            }
        }
        return null;
    }

    /**
     * rping's client side up to the server's first go-ahead: advertise our buffer, answer the server's RDMA Read
     * of it (which names the server's own buffer, its Data Sink), wait for the go-ahead Send.
     */
    private String rpingAsClient() throws IOException {
        int size = options.rpingSize();
        wire.sendFpdu(Segment.send(sendMsn++, advert(OUR_ADDRESS, OUR_STAG, size)).toBytes(), "rping advert (Send)");
        long deadline = deadline();
        while (true) {
            Wire.Next n = wire.nextFpdu(deadline);
            if (!n.isFpdu()) {
                return "rping server did not go ahead after our advert (" + endWords(n.end()) + ")";
            }
            appFpdus.add(n.fpdu());
            SegmentView v = SegmentView.parse(n.fpdu().ulpdu());
            SegmentView.ReadRequest rr = v.readRequest();
            if (rr != null) {
                buffer = new PeerBuffer(rr.sinkStag(), rr.sinkTo(), rr.size(), true, true);
                wire.sendFpdu(Segment.tagged(Segment.READ_RESPONSE, rr.sinkStag(), rr.sinkTo())
                        .payload(rpingData(rr.size())).toBytes(), "RDMA Read Response for the rping server");
            } else if (v.isTerminate()) {
                return "the peer terminated during rping's first exchange: " + v.describe();
            } else if (!v.tagged() && v.opcode() == Segment.SEND && buffer != null) {
                return null;
            }
        }
    }

    static byte[] advert(long addr, int stag, int len) {
        return ByteBuffer.allocate(16).putLong(addr).putInt(stag).putInt(len).array();
    }

    static byte[] rpingData(int size) {
        byte[] d = new byte[Math.max(0, size)];
        byte[] head = "rdma-ping-0: ".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < d.length; i++) {
            d[i] = i < head.length ? head[i] : (byte) ('A' + (i - head.length) % 26);
        }
        return d;
    }

    /** FPDUs the application exchange received (for the transcript and for checks on what the peer sends). */
    List<DecodedFpdu> applicationFpdus() {
        return appFpdus;
    }

    // ------------------------------------------------------------------ listening

    /**
     * Listens until the peer closes or {@code millis} pass; after a Terminate waits at most
     * {@link Options#closeWaitMillis()} more for the close.
     */
    Observation observe(long millis) throws IOException {
        long deadline = deadline(millis);
        List<DecodedFpdu> got = new ArrayList<>();
        while (true) {
            Wire.Next n = wire.nextFpdu(deadline);
            if (!n.isFpdu()) {
                return new Observation(got, n.end(), wire.millis());
            }
            got.add(n.fpdu());
            SegmentView v = SegmentView.parse(n.fpdu().ulpdu());
            if (v.isTerminate()) {
                deadline = Math.min(deadline, deadline(options.closeWaitMillis()));
            }
        }
    }

    Observation observe() throws IOException {
        return observe(options.checkTimeoutMillis());
    }
}
