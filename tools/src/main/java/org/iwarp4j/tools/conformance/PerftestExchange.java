package org.iwarp4j.tools.conformance;

import java.io.IOException;
import java.util.Locale;
import org.iwarp4j.oracle.Segment;
import org.iwarp4j.oracle.SegmentView;
import org.iwarp4j.tools.perf.PerftestWire;

/**
 * The client's side of perftest 4.5+0.17's control exchange ({@code -R}, docs/perftest-wire.md), driven as far as
 * the server's buffer and no further: the version, cycle buffer, cache line and MTU messages and the first
 * handshake on the control connection, then (once the caller has made the test connection) the second handshake
 * and the server's {@code pingpong_dest}s, and for {@code ib_send_bw} the handshake after which its receives are
 * posted. The messages are {@link PerftestWire}'s; this class only sequences them over a {@link Channel} (the
 * tool's scripted control connection, or a test's script), so that it is tested without sockets.
 */
final class PerftestExchange {

    /** The perftest program the server runs: nothing in 4.5's exchange says which, so the user names it. */
    enum Program {
        /** {@code ib_write_bw -R}: its buffer has remote write access (perftest's {@code create_single_mr}). */
        WRITE("ib_write_bw"),
        /** {@code ib_read_bw -R}: remote read access, and on iWARP remote write too (a Read's sink needs it). */
        READ("ib_read_bw"),
        /** {@code ib_send_bw -R}: receives of {@code -s} octets; its dest names its credit word, not a buffer. */
        SEND("ib_send_bw");

        final String tool;

        Program(String tool) {
            this.tool = tool;
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One Send each way, in turn: what the tool's control connection (or a test's script) does with a message. */
    interface Channel {
        void send(byte[] message, String what) throws IOException;

        /** The payload of the peer's next Send; throws when none comes in time or the peer sent something else. */
        byte[] receive(String what) throws IOException;

        /** One {@code ctx_xchg_data} of the client: ours, then the server's answer. */
        default byte[] receiveAfter(byte[] mine, String what) throws IOException {
            send(mine, what);
            return receive(what);
        }
    }

    /** The control connection as the tool drives it: its own MPA startup (IRD = ORD = 0), then Sends each way. */
    static final class WireChannel implements Channel {
        /** How long the first answer may take before we nudge (siw answers perftest's version within ms). */
        static final long NUDGE_MILLIS = 1000;
        private final Session session;
        private boolean answered;

        WireChannel(Session session) {
            this.session = session;
        }

        @Override
        public void send(byte[] message, String what) throws IOException {
            session.wire.sendFpdu(Segment.send(session.sendMsn++, message).toBytes(), "perftest " + what + " (Send)");
        }

        @Override
        public byte[] receive(String what) throws IOException {
            long deadline = session.deadline();
            Wire.Next n = session.wire.nextFpdu(answered ? deadline : Math.min(deadline,
                    Session.deadline(NUDGE_MILLIS)));
            if (!answered && n.end() == Wire.End.TIMEOUT) {
                // siw's accept race (interop/FINDINGS.md M15) can leave our first FPDU unread until more octets
                // come, and perftest's server then waits for our version forever: a zero-length RDMA Write (a
                // no-op at any peer, RFC 5041 §5.2) wakes it, as iwarp4j's own Initiator does (its nudge)
                session.wire.sendFpdu(Segment.tagged(Segment.WRITE, 1, 0).toBytes(), "zero-length RDMA Write, "
                        + "STag 1 (no answer yet: wakes a peer that left our first FPDU unread, FINDINGS M15)");
                n = session.wire.nextFpdu(deadline);
            }
            answered = true;
            if (!n.isFpdu()) {
                throw new IOException("no perftest " + what + " from the server (" + Session.endWords(n.end()) + ")");
            }
            SegmentView v = SegmentView.parse(n.fpdu().ulpdu());
            if (v.isTerminate()) {
                throw new IOException("the server terminated the control connection: " + v.describe());
            }
            if (v.tagged() || v.opcode() != Segment.SEND || v.qn() != Segment.QN_SEND || !v.last()) {
                throw new IOException("the server's answer to the perftest " + what + " is no one-segment Send: "
                        + v.describe());
            }
            return v.payload();
        }
    }

    /** perftest's {@code rx_depth} of {@code ib_send_bw}: 512, at most the iterations ({@code -n}), made even. */
    static final int MAX_RX_DEPTH = 512;
    /** perftest's largest {@code -s} ({@code MAX_SIZE}, 8 MiB). */
    static final int MAX_SIZE = 1 << 23;
    /** Our cycle buffer and cache line (a 4 KiB page, 64 octets), as {@code iwarp perf} announces them. */
    static final int CYCLE_BUFFER = 4096;
    static final int CACHE_LINE = 64;
    /** The queue pair number our dest carries; nothing on iWARP uses it. */
    static final int OUR_QPN = 0x5eed;

    private final Channel control;
    private final Program program;
    private final int size;
    private String peerVersion;
    private int cycleBuffer = CYCLE_BUFFER;
    private PerftestWire.Dest server;

    PerftestExchange(Channel control, Program program, int size) {
        this.control = control;
        this.program = program;
        this.size = size;
    }

    /** Messages 1 to 5: before the test connection (the server listens for it only after the fifth). */
    void beforeTestConnection() throws IOException {
        byte[] v = control.receiveAfter(PerftestWire.version(PerftestWire.VERSION), "version");
        peerVersion = PerftestWire.decodeVersion(v);
        PerftestWire.checkVersion(PerftestWire.VERSION, peerVersion);
        cycleBuffer = Math.max(CYCLE_BUFFER, PerftestWire.decodeCycleBuffer(
                control.receiveAfter(PerftestWire.int32(CYCLE_BUFFER), "cycle buffer")));
        PerftestWire.decodeCacheLine(control.receiveAfter(PerftestWire.int32(CACHE_LINE), "cache line size"));
        PerftestWire.decodeMtu(control.receiveAfter(PerftestWire.mtu(PerftestWire.IBV_MTU_1024), "MTU"));
        hand(PerftestWire.Dest.ZERO, "handshake before the test connection");
    }

    /**
     * After the test connection: the handshake of zeros, then the dests ({@code ib_write_bw}, {@code ib_read_bw}:
     * D, D, H; {@code ib_send_bw}: D, H, D and the first size's H, before which it posts its receives). Returns
     * the server's last dest.
     */
    PerftestWire.Dest afterTestConnection(int ourOutReads) throws IOException {
        hand(PerftestWire.Dest.ZERO, "handshake after the test connection");
        PerftestWire.Dest mine = new PerftestWire.Dest(0, ourOutReads, OUR_QPN, 0x10101, Session.OUR_STAG,
                Session.OUR_ADDRESS, new byte[16], 0, 0);
        for (int i = 0; i < 3; i++) {
            server = hand(mine, "pingpong_dest " + (i + 1) + " of 3");
        }
        if (program == Program.SEND) {
            server = hand(mine, "handshake before the first size (its receives are posted)");
        } else if (server.rkey() == 0 && server.vaddr() == 0) {
            throw new IOException("the server's pingpong_dest names no buffer (rkey 0, vaddr 0)");
        }
        return server;
    }

    private PerftestWire.Dest hand(PerftestWire.Dest mine, String what) throws IOException {
        return PerftestWire.Dest.decode(control.receiveAfter(mine.encode(), what));
    }

    /** perftest's {@code BUFF_SIZE}: the larger of the message size and the cycle buffer both ends agreed on. */
    long buffSize() {
        return Math.max((long) size, cycleBuffer);
    }

    /**
     * The server's test buffer: perftest registers 2 x {@code BUFF_SIZE} per queue pair and names its second half
     * ({@code vaddr = buf + (num_qps + i) * BUFF_SIZE}, {@code -q 1}), so the region is
     * [vaddr - BUFF_SIZE, vaddr + BUFF_SIZE). Null for {@code ib_send_bw}, whose dest names its credit word.
     */
    Session.PeerBuffer buffer() {
        if (program == Program.SEND || server == null) {
            return null;
        }
        long half = buffSize();
        long base = Long.compareUnsigned(server.vaddr(), half) >= 0 ? server.vaddr() - half : server.vaddr();
        int length = (int) Math.min(Integer.MAX_VALUE, base == server.vaddr() ? half : 2 * half);
        return new Session.PeerBuffer(server.rkey(), base, length, true, program == Program.READ);
    }

    /** The receives {@code ib_send_bw}'s server posted before the handshake: {@code rx_depth} of {@code -s}. */
    static int rxDepth(long iterations) {
        int rx = (int) Math.min(MAX_RX_DEPTH, Math.max(1, iterations));
        return rx % 2 == 1 ? rx + 1 : rx;
    }

    String peerVersion() {
        return peerVersion;
    }

    int cycleBuffer() {
        return cycleBuffer;
    }

    Program program() {
        return program;
    }
}
