package org.iwarp4j.verbs.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.common.MpaOptions;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.FramingNegotiation;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.fpdu.FpduLayout;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.testkit.fuzz.LeakCheckingAllocator;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.SendWorkRequest.AtomicCompareSwap;
import org.iwarp4j.verbs.SendWorkRequest.AtomicFetchAdd;
import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.Sge;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionParameters;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The stateful target of a whole queue pair: verbs, RDMAP, DDP and MPA, the connection's real pipeline
 * ({@link ConnectionPipelines#initiator}) on an {@link EmbeddedChannel} whose loop the RNIC runs on (the test
 * seam {@link RnicImpl#connectOver}), as the Initiator against a fuzzed peer ({@link #responderQueuePair}: as
 * the Responder, {@link ConnectionPipelines#responder} over {@link RnicImpl#acceptOver}). The input is a script (see
 * {@link Script}): the connection's options, then the peer's MPA Reply — a valid one built from our Request with
 * fuzzed choices (revision, markers, CRC, RTR type, IRD/ORD, rejection, private data), or raw octets — then up
 * to 64 steps mixing what the application posts (receives, Sends, Writes, Reads, FetchAdd, CmpSwap) with what
 * the peer sends (ULPDUs framed as valid FPDUs with the connection's CRC and markers, or raw octets), the fake
 * clock advancing, a local disconnect, the connection closing; then the queue pair closes.
 *
 * <p>What must hold for every input: a post is accepted or refused with a {@link VerbsException} (or, for a
 * malformed request, an {@link IllegalArgumentException}), nothing else escapes to the caller and no exception
 * reaches the end of the pipeline; every accepted work request completes exactly once (success or a flush/error
 * status); every FPDU we send reads back with the negotiated framing; at most one Terminate is sent and nothing
 * after it; the guard octets around every registered region and the remote-read-only region are intact; the
 * channel is closed, no timer outlives it, and the RNIC's counts of posted receives and IRD are back at 0; nothing
 * leaks ({@link LeakCheckingAllocator}, per input: every buffer of the channel, the queue pair and the RNIC).
 *
 * <p>The RNIC, its protection domain, completion queues and regions live across inputs (a {@link Rig}, rebuilt
 * if an input invalidated a region or failed): building an RNIC per input cost more than the rest of it.
 *
 * <p>The RNIC's STag keys are random: a peer ULPDU names our regions by placeholders, {@code 5c a1 ab 0N}
 * (N = region 0..3) anywhere in it becomes region N's STag.
 */
class QueuePairFuzzTest {

    private static final LeakCheckingAllocator ALLOC = new LeakCheckingAllocator();
    private static final int GUARD = 32;
    /** The regions, one after the other in one arena, each followed by a guard. */
    private static final int[] SIZES = {512, 256, 64, 1024};
    private static final List<Set<Access>> ACCESS = List.of(
            EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE), // 0: the peer writes here
            EnumSet.of(Access.REMOTE_READ), // 1: the peer may only read this
            EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_ATOMIC), // 2: the peer's atomics
            EnumSet.of(Access.LOCAL_WRITE)); // 3: our sources and sinks (Sends, Writes, Reads, receives)
    private static final int READ_ONLY = 1;
    private static final byte[] PATTERN = pattern();
    private static final int LOCAL = 3;
    private static final int PLACEHOLDER = 0x5ca1ab00;
    private static final int MAX_STEPS = 64;
    private static final int TERMINATE = 0x7;
    private static final RtrType[] RTR_TYPES = RtrType.values();
    private static final RnicConfig RNIC = RnicConfig.builder().name("fuzz").maxStags(16).maxQueuePairs(1)
            .maxIrdOrd(8).build();

    /** What outlives an input, rebuilt when an input left it unusable. */
    private static Rig rig;

    @FuzzTest
    void queuePair(byte[] input) {
        run(input, false);
    }

    /**
     * The same queue pair as the Responder: the fuzzed peer sends the MPA Request (a valid one with fuzzed choices,
     * or raw octets), a listener's handler accepts it, rejects it or never decides (the script says which), and the
     * steps follow. Layout: as {@link #queuePair}'s, but after the queue pair options a u8 decision (bits 1-0: 0 or 1
     * accept, 2 reject, 3 no decision; bit 2 accept with the IRD and ORD of the next two u8; bits 7-3 the length of
     * the Reply's private data, the octets), then the listener's MPA options (as the connect's), then the Request
     * (raw: u8 length, octets; else u8 choices — bit 0 M, 1 C, 2 revision 2, 3 peer-to-peer, 4-6 Send, Write, Read
     * RTR — u8 private data length, the octets, and for revision 2 u8 IRD, u8 ORD).
     */
    @FuzzTest
    void responderQueuePair(byte[] input) {
        run(input, true);
    }

    /** One input; true if the connection was established (and its framing checked against the peer's). */
    private static boolean run(byte[] input, boolean responder) {
        if (rig == null || !rig.intact()) {
            if (rig != null) {
                rig.close();
            }
            rig = new Rig();
        }
        Rig r = rig;
        rig = null; // until this input has left it clean
        r.arena.setBytes(0, PATTERN);
        Script s = new Script(input);
        TcpLikeChannel ch = new TcpLikeChannel(false);
        ch.config().setAllocator(ALLOC);
        if (!r.holder.eventLoop().register(ch).isSuccess()) {
            throw new IllegalStateException("the channel did not register");
        }
        Peer peer = new Peer(ch, r.holder, r.stags, responder);
        Map<Long, Integer> expected = new HashMap<>();
        Map<Long, Integer> completed = new HashMap<>();
        QueuePair qp = null;
        try {
            int options = s.u8();
            qp = r.pd.createQueuePair(QueuePairConfig.builder(r.sendCq, r.receiveCq).maxSendWr(8).maxRecvWr(8)
                    .signalAll((options & 0x80) != 0).ird(1 + (options & 3)).ord(1 + (options >> 2 & 3))
                    .responseTimeout(Duration.ofSeconds(options & 0x40)).build());
            CompletableFuture<Connection> connecting;
            if (responder) {
                connecting = accept(r, ch, qp, s);
                if ((options & 0x20) != 0) {
                    peer.sendsRawRequest(s.bytes(s.u8()));
                } else {
                    peer.sendsRequest(s);
                }
            } else {
                connecting = r.rnic.connectOver(ch, qp, connectOptions(s));
                peer.takeRequest();
                if ((options & 0x20) != 0) {
                    peer.sendsRawReply(s.bytes(s.u8()));
                } else {
                    peer.replies(s);
                }
            }
            peer.exchange(connecting);
            long id = 1;
            for (int step = 0; step < MAX_STEPS && s.remaining() > 0; step++) {
                int op = s.u8() % 14;
                if (op < 6) {
                    if (post(qp, r.regions, op, id, s)) {
                        expected.put(id, 1);
                    }
                    id++;
                } else {
                    switch (op) {
                        case 6, 7, 8 -> peer.sendsUlpdu(s.bytes(s.u16() % 600));
                        case 9 -> peer.sendsRaw(s.bytes(s.u8()));
                        case 10 -> r.advance(s.u8());
                        case 11 -> {
                            if (established(connecting)) {
                                connecting.join().disconnect();
                            }
                        }
                        case 12 -> ch.close();
                        default -> drain(r, completed);
                    }
                }
                peer.exchange(connecting);
            }
            qp.close();
            r.advance(600);
            peer.exchange(connecting);
            drain(r, completed);
            if (!completed.equals(expected)) {
                throw new AssertionError("completions " + completed + ", expected one each of " + expected.keySet());
            }
            if (ch.isOpen()) {
                throw new AssertionError("the channel is still open after the queue pair closed");
            }
            if (r.holder.runScheduledPendingTasks() != -1) {
                throw new AssertionError("a timer outlives the connection");
            }
            r.checkReturned();
            rig = r;
        } finally {
            if (rig == null && qp != null) {
                qp.close();
            }
            ch.finishAndReleaseAll();
            peer.release();
        }
        checkGuards(r.arena);
        ALLOC.assertNoLeaks();
        return peer.parametersChecked;
    }

    /**
     * Found by {@link #queuePair} (seed {@code raw-reply-completed-by-later-octets}): raw octets in place of the Reply
     * that hold only part of it, completed by a later step's raw octets. The stack takes the whole Reply and is
     * established; the harness judged the Reply from the first octets alone and failed the input ("not the framing
     * the Reply negotiates"). It now keeps what the peer sends until its startup frame is whole.
     */
    @Test
    void aRawReplyCompletedByLaterOctetsIsJudgedWhole() {
        byte[] reply = rev1Frame("MPA ID Rep Frame");
        byte[] script = concat(new byte[] {0x20, 0x02, (byte) (reply.length - 2)},
                Arrays.copyOf(reply, reply.length - 2), new byte[] {9, 2},
                Arrays.copyOfRange(reply, reply.length - 2, reply.length), new byte[] {13});
        assertTrue(run(script, false), "established over a Reply sent in two steps");
    }

    /** As {@link #aRawReplyCompletedByLaterOctetsIsJudgedWhole}, the Responder's side: a raw Request in two steps. */
    @Test
    void aRawRequestCompletedByLaterOctetsIsJudgedWhole() {
        byte[] request = rev1Frame("MPA ID Req Frame");
        byte[] script = concat(new byte[] {0x20, 0x00, 0x02, (byte) (request.length - 2)},
                Arrays.copyOf(request, request.length - 2), new byte[] {9, 2},
                Arrays.copyOfRange(request, request.length - 2, request.length), new byte[] {13});
        assertTrue(run(script, true), "established over a Request sent in two steps");
    }

    /** A revision 1 frame with the key given, CRC asked for, no markers, 4 octets of private data. */
    private static byte[] rev1Frame(String key) {
        byte[] frame = Arrays.copyOf(key.getBytes(StandardCharsets.US_ASCII), 24);
        frame[16] = 0x40; // C
        frame[17] = 1; // Rev
        frame[19] = 4; // PD_Length
        System.arraycopy(new byte[] {'p', 'd', '!', '!'}, 0, frame, 20, 4);
        return frame;
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuf all = Unpooled.buffer();
        for (byte[] part : parts) {
            all.writeBytes(part);
        }
        byte[] out = new byte[all.readableBytes()];
        all.readBytes(out);
        return out;
    }

    /**
     * The RNIC, its protection domain, completion queues and regions, on the loop of a channel that only holds
     * it; each input connects a new queue pair over a new channel on that loop. The regions lie in one arena
     * (not from {@link #ALLOC}: it outlives the input), restored to {@link #PATTERN} before every input.
     */
    private static final class Rig {
        final TcpLikeChannel holder = new TcpLikeChannel();
        final RnicImpl rnic = new RnicImpl(RNIC, ALLOC, holder.eventLoop());
        final ProtectionDomain pd = rnic.allocateProtectionDomain();
        final CompletionQueue sendCq = rnic.createCompletionQueue(MAX_STEPS);
        final CompletionQueue receiveCq = rnic.createCompletionQueue(MAX_STEPS);
        final ByteBuf arena = Unpooled.buffer(PATTERN.length, PATTERN.length).writeBytes(PATTERN);
        final MemoryRegion[] regions = new MemoryRegion[SIZES.length];
        final int[] stags = new int[SIZES.length];

        Rig() {
            for (int i = 0, at = GUARD; i < SIZES.length; at += SIZES[i] + GUARD, i++) {
                regions[i] = RnicImpl.registerByteBuf(pd, arena.slice(at, SIZES[i]), ACCESS.get(i));
                stags[i] = regions[i].stag().value();
            }
        }

        /**
         * The fake clock on, and what is due run. Always through the holder: a closed channel is deregistered,
         * and its own {@code runPendingTasks} no longer runs the shared loop.
         */
        void advance(int seconds) {
            holder.advanceTimeBy(seconds, TimeUnit.SECONDS);
            holder.runScheduledPendingTasks();
            holder.runPendingTasks();
        }

        /** Whether the regions are still valid (a peer may have invalidated one). */
        boolean intact() {
            for (MemoryRegion region : regions) {
                if (!region.isValid()) {
                    return false;
                }
            }
            return true;
        }

        /** What the queue pair held of the RNIC's limits is back once it closed and its completions were polled. */
        void checkReturned() {
            if (rnic.postedReceives().used() != 0 || rnic.inboundReadsAndAtomics().used() != 0
                    || rnic.startups().used() != 0) {
                throw new AssertionError("after close: " + rnic.postedReceives().used() + " posted receives, "
                        + rnic.inboundReadsAndAtomics().used() + " of the IRD, " + rnic.startups().used()
                        + " MPA startups still counted");
            }
        }

        void close() {
            rnic.close(); // closes its queues and regions
            holder.finishAndReleaseAll();
            arena.release();
        }
    }

    /**
     * The Responder's side: a listener of its own on {@code ch} whose handler does what the script's decision says;
     * the future completes when the accepted connection is established.
     */
    private static CompletableFuture<Connection> accept(Rig r, TcpLikeChannel ch, QueuePair qp, Script s) {
        int decision = s.u8();
        AcceptOptions accept = AcceptOptions.withPrivateData(s.bytes(decision >> 3));
        if ((decision & 4) != 0) {
            accept = accept.withIrdOrd(s.u8() % 10, s.u8() % 10);
        }
        AcceptOptions chosen = accept;
        ListenOptions listen = ListenOptions.builder().mpa(mpaOptions(s)).build();
        CompletableFuture<Connection> accepted = new CompletableFuture<>();
        r.rnic.acceptOver(ch, listen, request -> {
            switch (decision & 3) {
                case 0, 1 -> request.accept(qp, chosen).whenComplete((c, e) -> {
                    if (e != null) {
                        accepted.completeExceptionally(e);
                    } else {
                        accepted.complete(c);
                    }
                });
                case 2 -> request.reject(chosen.privateData());
                default -> { } // no decision: the startup's timeout decides
            }
        });
        return accepted;
    }

    private static ConnectOptions connectOptions(Script s) {
        return ConnectOptions.builder().mpa(mpaOptions(s)).disconnectTimeout(Duration.ofSeconds(5)).build();
    }

    private static MpaOptions mpaOptions(Script s) {
        int b = s.u8();
        MpaOptions.Builder mpa = MpaOptions.builder().revision(1 + (b & 1)).crc((b & 2) != 0)
                .markers((b & 4) != 0).startupTimeout(Duration.ofSeconds(10));
        if ((b & 8) != 0 && (b & 1) != 0) {
            List<RtrType> offered = new ArrayList<>();
            for (int i = 0; i < RTR_TYPES.length; i++) {
                if ((b >> (4 + i) & 1) != 0) {
                    offered.add(RTR_TYPES[i]);
                }
            }
            mpa.peerToPeer(true).rtrTypes(offered.isEmpty() ? List.of(RtrType.WRITE) : offered);
        }
        return mpa.build();
    }

    /** A post the script describes; true if accepted. */
    private static boolean post(QueuePair qp, MemoryRegion[] regions, int op, long id, Script s) {
        MemoryRegion local = regions[LOCAL];
        try {
            if (op == 0) {
                qp.postReceive(ReceiveWorkRequest.of(id, new Sge(local, s.u16() % 1100, s.u16() % 1100)));
                return true;
            }
            Sge sge = new Sge(local, s.u16() % 1100, s.u16() % 1100);
            RemoteBuffer remote = new RemoteBuffer(new Stag(s.u32()), s.u64(), s.u16());
            SendWorkRequest wr = switch (op) {
                case 1 -> Send.of(id, sge);
                case 2 -> RdmaWrite.of(id, sge, remote);
                case 3 -> RdmaRead.of(id, sge, remote);
                case 4 -> AtomicFetchAdd.of(id, new RemoteBuffer(remote.stag(), remote.taggedOffset(), 8), s.u64());
                default -> AtomicCompareSwap.of(id, new RemoteBuffer(remote.stag(), remote.taggedOffset(), 8),
                        s.u64(), s.u64());
            };
            qp.postSend(wr);
            return true;
        } catch (VerbsException | IllegalArgumentException refused) {
            return false;
        }
    }

    private static boolean established(CompletableFuture<Connection> connecting) {
        return connecting.isDone() && !connecting.isCompletedExceptionally();
    }

    private static void drain(Rig r, Map<Long, Integer> completed) {
        r.sendCq.drain(wc -> completed.merge(wc.wrId(), 1, Integer::sum));
        r.receiveCq.drain(wc -> completed.merge(wc.wrId(), 1, Integer::sum));
    }

    private static byte[] pattern() {
        int length = GUARD;
        for (int size : SIZES) {
            length += size + GUARD;
        }
        byte[] p = new byte[length];
        for (int i = 0; i < length; i++) {
            p[i] = (byte) (i * 31 + 7);
        }
        return p;
    }

    /** The guards, and the region the peer may only read, as they were. */
    private static void checkGuards(ByteBuf arena) {
        byte[] now = new byte[PATTERN.length];
        arena.getBytes(0, now);
        for (int i = 0, at = 0; i <= SIZES.length; i++) {
            int end = at + GUARD + (i == READ_ONLY ? SIZES[i] : 0);
            int changed = Arrays.mismatch(now, at, end, PATTERN, at, end);
            if (changed >= 0) {
                throw new AssertionError("octet " + (at + changed) + " of the arena changed: outside a region the "
                        + "peer or a completion may write");
            }
            at += GUARD + (i < SIZES.length ? SIZES[i] : 0);
        }
    }

    /**
     * The fuzzed peer: reads what we send (our MPA Request or Reply, then FPDUs with the negotiated framing,
     * checking each reads back and that nothing follows a Terminate), and writes what the script says; {@code loop}:
     * the channel whose tasks it runs (the shared loop's holder); {@code responder}: we are the Responder, the peer
     * sends the Request.
     */
    private static final class Peer {
        private final EmbeddedChannel ch;
        private final EmbeddedChannel loop;
        private final int[] stags;
        private final ByteBuf fromUs = ALLOC.buffer();
        private final boolean responder;
        private MpaFrame request;
        /** Ours, when we are the Responder: null until it came. */
        private MpaFrame reply;
        private FpduReader ours;
        private FpduWriter theirs;
        private boolean terminated;
        private boolean framingKnown;
        private boolean parametersChecked;
        /** What the peer sent since raw octets took the place of its startup frame, until they hold all of it. */
        private ByteBuf startup;

        Peer(EmbeddedChannel ch, EmbeddedChannel loop, int[] stags, boolean responder) {
            this.ch = ch;
            this.loop = loop;
            this.stags = stags;
            this.responder = responder;
        }

        /** A valid Request with the choices the script makes. */
        void sendsRequest(Script s) {
            int b = s.u8();
            boolean markers = (b & 1) != 0;
            boolean crc = (b & 2) != 0;
            byte[] privateData = s.bytes(s.u8() % 24);
            if ((b & 4) == 0) {
                request = MpaFrame.rev1(MpaFrameType.REQUEST, markers, crc, false, privateData);
            } else {
                EnhancedConnectionData asks = new EnhancedConnectionData((b & 8) != 0, (b & 0x10) != 0, s.u8() % 10,
                        (b & 0x20) != 0, (b & 0x40) != 0, s.u8() % 10);
                request = MpaFrame.enhanced(MpaFrameType.REQUEST, markers, crc, false, asks, privateData);
            }
            ByteBuf out = ALLOC.buffer(request.length());
            MpaFrameCodec.encode(request, out);
            theirs = new FpduWriter(crc, false, 65535, 0); // a guess until the Reply says
            ch.writeInbound(out);
        }

        /**
         * Octets in place of the Request: once what the peer sent holds one (these octets, or with later ones), the
         * Reply is judged against it; if they cannot start one, the startup fails and we send nothing but perhaps a
         * rejecting Reply.
         */
        void sendsRawRequest(byte[] octets) {
            theirs = new FpduWriter(false, false, 65535, 0); // a guess until the Request is whole
            startup = ALLOC.buffer();
            sendsRaw(octets);
        }

        /** As the Responder: our Reply, once it is there; the framing it negotiates. */
        private void takeReply() {
            if (reply != null || !fromUs.isReadable()) {
                return;
            }
            MpaFrame r;
            try {
                r = MpaFrameCodec.parse(fromUs);
            } catch (MpaException e) {
                throw new AssertionError("our Reply does not parse", e);
            }
            if (r == null) {
                return; // not all of it yet
            }
            if (r.type() != MpaFrameType.REPLY) {
                throw new AssertionError("the Responder sent a " + r.type() + " first");
            }
            fromUs.skipBytes(r.length());
            reply = r;
            if (!r.rejected()) {
                if (request == null) {
                    throw new AssertionError("a Reply that accepts what was not an MPA Request: " + r);
                }
                boolean crc = FramingNegotiation.crc(request, r);
                ours = new FpduReader(crc, FramingNegotiation.senderInsertsMarkers(request), 65535, 0);
                theirs = new FpduWriter(crc, FramingNegotiation.senderInsertsMarkers(r), 65535, 0);
                framingKnown = true;
            }
        }

        void takeRequest() {
            collect();
            request = MpaFrameCodec.parse(fromUs);
            if (request == null || request.type() != MpaFrameType.REQUEST) {
                throw new AssertionError("the Initiator did not send its MPA Request first: " + request);
            }
            fromUs.skipBytes(request.length());
            if (fromUs.isReadable()) {
                throw new AssertionError("the Initiator sent more than its Request before the Reply");
            }
            // A guess until the connection says: what the Request asked for.
            theirs = new FpduWriter(request.crc(), request.markers(), 65535, 0);
        }

        /** A valid Reply to our Request, with the choices the script makes. */
        void replies(Script s) {
            int b = s.u8();
            boolean markers = (b & 1) != 0 ? !request.markers() : request.markers();
            boolean crc = (b & 2) != 0 ? !request.crc() : request.crc();
            boolean reject = (b & 0x0c) == 0x0c;
            byte[] privateData = s.bytes(s.u8() % 24);
            MpaFrame reply;
            EnhancedConnectionData asked = request.enhancedData();
            if (asked == null || (b & 0x10) != 0) {
                reply = MpaFrame.rev1(MpaFrameType.REPLY, markers, crc, reject, privateData);
            } else {
                int rtr = b >> 5 & 3;
                EnhancedConnectionData ours = new EnhancedConnectionData(asked.peerToPeer(),
                        asked.sendRtr() && rtr == 0, s.u8() % 10, asked.writeRtr() && rtr == 1,
                        asked.readRtr() && rtr == 2, s.u8() % 10);
                reply = new MpaFrame(MpaFrameType.REPLY, markers, crc, reject, true, 0, request.revision(), ours,
                        privateData);
            }
            ByteBuf out = ALLOC.buffer(reply.length());
            MpaFrameCodec.encode(reply, out);
            framing(reply, 0);
            ch.writeInbound(out);
        }

        /**
         * Octets in place of the Reply: once what the peer sent holds one (these octets, or with later ones), the
         * framing is the one it negotiates; if they cannot start one, the startup fails and we send nothing more.
         */
        void sendsRawReply(byte[] octets) {
            startup = ALLOC.buffer();
            sendsRaw(octets);
        }

        /**
         * The framing both ways once {@code reply} is taken (none if it rejects: then we send nothing more);
         * {@code after}: the octets the peer sent after its Reply so far.
         */
        private void framing(MpaFrame reply, int after) {
            if (!reply.rejected()) {
                boolean crc = FramingNegotiation.crc(request, reply);
                ours = new FpduReader(crc, FramingNegotiation.senderInsertsMarkers(reply), 65535, 0);
                // Its FPDUs start after those octets (rounded to the 4 the writer needs: if they are not a multiple
                // of 4 the stream is broken anyway).
                theirs = new FpduWriter(crc, FramingNegotiation.senderInsertsMarkers(request), 65535, after & ~3);
                framingKnown = true;
            }
        }

        /**
         * Keeps what the peer sends after raw octets in place of its own startup frame (Request or Reply) and
         * judges that frame once they hold all of it: a raw frame may be completed by later steps' octets.
         */
        private void sending(ByteBuf octets) {
            if (startup == null) {
                return;
            }
            startup.writeBytes(octets, octets.readerIndex(), octets.readableBytes());
            MpaFrame frame;
            try {
                frame = MpaFrameCodec.parse(startup);
                if (frame == null) {
                    return; // not all of it yet
                }
            } catch (MpaException notAFrame) {
                frame = null; // the startup fails
            }
            int after = frame == null ? 0 : startup.readableBytes() - frame.length();
            startup.release();
            startup = null;
            if (frame == null || frame.type() != (responder ? MpaFrameType.REQUEST : MpaFrameType.REPLY)) {
                return;
            }
            if (responder) {
                request = frame;
                theirs = new FpduWriter(frame.crc(), false, 65535, 0); // a guess until the Reply says
            } else {
                framing(frame, after);
            }
        }

        void sendsRaw(byte[] octets) {
            if (octets.length > 0 && ch.isOpen()) {
                ByteBuf in = ALLOC.buffer(octets.length).writeBytes(octets);
                sending(in);
                ch.writeInbound(in);
            }
        }

        /** A ULPDU, placeholders replaced by our STags, framed as an FPDU. */
        void sendsUlpdu(byte[] ulpdu) {
            if (!ch.isOpen()) {
                return;
            }
            for (int i = 0; i + 4 <= ulpdu.length; i++) {
                int v = (ulpdu[i] & 0xff) << 24 | (ulpdu[i + 1] & 0xff) << 16 | (ulpdu[i + 2] & 0xff) << 8
                        | ulpdu[i + 3] & 0xff;
                if ((v & 0xfffffffc) == PLACEHOLDER) {
                    int stag = stags[v & 3];
                    ulpdu[i] = (byte) (stag >>> 24);
                    ulpdu[i + 1] = (byte) (stag >>> 16);
                    ulpdu[i + 2] = (byte) (stag >>> 8);
                    ulpdu[i + 3] = (byte) stag;
                    i += 3;
                }
            }
            // The parts into one buffer, as the MPA handler writes them: encode's composite buffer costs a component
            // per part and a copy out of each when the stack reads it.
            ByteBuf wire = ALLOC.buffer(FpduLayout.wireLength(theirs.streamOffset(), ulpdu.length,
                    theirs.markersEnabled()));
            theirs.write(ALLOC.buffer(ulpdu.length).writeBytes(ulpdu), null, ALLOC, (part, last) -> {
                wire.writeBytes(part, part.readerIndex(), part.readableBytes());
                part.release();
            });
            sending(wire);
            ch.writeInbound(wire);
        }

        /** Runs what is pending, then reads and checks everything we sent. */
        void exchange(CompletableFuture<Connection> connecting) {
            loop.runPendingTasks();
            loop.checkException();
            ch.checkException();
            collect();
            if (responder) {
                takeReply();
            }
            if (!parametersChecked && established(connecting)) {
                ConnectionParameters p = connecting.join().parameters();
                if (!framingKnown || p.crc() != theirs.crcEnabled() || p.rxMarkers() != theirs.markersEnabled()
                        || p.txMarkers() != ours.markersEnabled()) {
                    throw new AssertionError("established with " + p + ", not the framing the Reply negotiates");
                }
                parametersChecked = true;
            }
            if (!framingKnown) {
                if (fromUs.isReadable() && (!responder || reply != null)) {
                    throw new AssertionError("we sent " + fromUs.readableBytes() + " octets after our "
                            + (responder ? "Reply" : "Request") + ", without a Reply that accepts");
                }
                return;
            }
            try {
                ByteBuf ulpdu;
                while ((ulpdu = ours.read(fromUs, ALLOC)) != null) {
                    try {
                        if (terminated) {
                            throw new AssertionError("an FPDU after the Terminate");
                        }
                        terminated = ulpdu.readableBytes() >= 2 && (ulpdu.getByte(ulpdu.readerIndex() + 1) & 0xf)
                                == TERMINATE;
                    } finally {
                        ulpdu.release();
                    }
                }
            } catch (MpaException e) {
                throw new AssertionError("our own FPDUs do not read back", e);
            }
            fromUs.discardReadBytes();
        }

        private void collect() {
            Object o;
            while ((o = ch.readOutbound()) != null) {
                if (!(o instanceof ByteBuf b)) {
                    throw new AssertionError("the pipeline wrote a " + o.getClass().getSimpleName());
                }
                fromUs.writeBytes(b);
                b.release();
            }
        }

        void release() {
            fromUs.release();
            if (startup != null) {
                startup.release();
            }
        }
    }

    /**
     * The input read front to back, big-endian; past its end every number is 0 and every array empty. Layout: u8
     * queue pair options (bit 7 signal all, 6 a 64 s response timeout, 5 raw Reply, 3-2 ORD-1, 1-0 IRD-1); u8 MPA
     * options (bit 0 revision 2, 1 CRC, 2 markers, 3 peer-to-peer, 6-4 the RTR types offered); the Reply (raw: u8
     * length, octets; else u8 choices — bit 0 flip M, 1 flip C, 3-2 both set R=1, 4 revision 1, 6-5 RTR type — u8
     * private data length, the octets, u8 IRD, u8 ORD); then steps, each a u8 mod 14: 0 receive (u16 offset, u16
     * length into region 3); 1-5 Send, Write, Read, FetchAdd, CmpSwap (u16 offset, u16 length, u32 STag, u64 TO,
     * u16 length, then u64 add or u64 compare, u64 swap); 6-8 a peer ULPDU (u16 length mod 600, octets); 9 raw peer
     * octets (u8 length, octets); 10 clock (u8 seconds); 11 disconnect; 12 close; 13 poll.
     */
    static final class Script {
        private final byte[] in;
        private int at;

        Script(byte[] in) {
            this.in = in;
        }

        int remaining() {
            return in.length - at;
        }

        int u8() {
            return at < in.length ? in[at++] & 0xff : 0;
        }

        int u16() {
            return u8() << 8 | u8();
        }

        int u32() {
            return u16() << 16 | u16();
        }

        long u64() {
            return (long) u32() << 32 | u32() & 0xffffffffL;
        }

        byte[] bytes(int n) {
            int k = Math.max(0, Math.min(n, remaining()));
            byte[] b = new byte[k];
            System.arraycopy(in, at, b, 0, k);
            at += k;
            return b;
        }
    }
}
