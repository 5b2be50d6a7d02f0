package org.iwarp4j.mpa.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.MpaRole;
import org.iwarp4j.mpa.RtrReplyPolicy;
import org.iwarp4j.mpa.netty.MpaConnectRequest;
import org.iwarp4j.mpa.netty.MpaEstablishedEvent;
import org.iwarp4j.mpa.netty.MpaRejectedEvent;
import org.iwarp4j.mpa.netty.MpaStartupEvent;
import org.iwarp4j.mpa.netty.MpaStartupFailedEvent;
import org.iwarp4j.mpa.netty.MpaStartupHandler;
import org.iwarp4j.testkit.fuzz.LeakCheckingAllocator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * MPA startup in both roles against a fuzzed peer (RFC 5044 §7.1, RFC 6581 §9, §10): an
 * {@link MpaStartupHandler} in an {@link EmbeddedChannel}, its configuration (revision, CRC, markers,
 * peer-to-peer with RTR types and reply policy, IRD/ORD, manual or automatic accept) drawn from the
 * input, then the peer's octets — its Request or Reply, an RTR FPDU, whatever follows — in chunks of
 * fuzzed sizes, then the fake clock runs past every timeout.
 *
 * <p>What must hold for every input: nothing but an {@link MpaException} reaches the layer above
 * (and only after startup, from the FPDU decoder); at most one startup outcome is reported, and once
 * the timeouts have run, exactly one; a failure reported as closing the connection has closed it;
 * before the outcome the Initiator has sent exactly its Request and nothing else; every buffer is
 * released (the {@link LeakCheckingAllocator}, checked per input).
 */
class MpaStartupFuzzTest {

    private static final LeakCheckingAllocator ALLOC = new LeakCheckingAllocator();

    @FuzzTest
    void initiator(FuzzedDataProvider data) throws Exception {
        run(MpaRole.INITIATOR, data);
    }

    @FuzzTest
    void responder(FuzzedDataProvider data) throws Exception {
        run(MpaRole.RESPONDER, data);
    }

    private static void run(MpaRole role, FuzzedDataProvider data) throws Exception {
        MpaConfig config = config(data);
        boolean manual = role == MpaRole.RESPONDER && !config.autoAccept();
        int decision = data.consumeInt(0, 2); // accept, accept with private data, reject
        Upper upper = new Upper(manual, decision);
        EmbeddedChannel ch = new EmbeddedChannel(false, false, new MpaStartupHandler(role, config), upper);
        ch.config().setAllocator(ALLOC);
        ch.register();
        try {
            int sentBeforeOutcome = drainOutbound(ch);
            while (data.remainingBytes() > 0 && ch.isOpen()) {
                int chunk = data.consumeInt(1, 600);
                byte[] octets = data.consumeBytes(chunk);
                if (octets.length == 0) {
                    break;
                }
                ch.writeInbound(ALLOC.buffer(octets.length).writeBytes(octets));
                int sent = drainOutbound(ch);
                if (upper.outcomes.isEmpty()) {
                    sentBeforeOutcome += sent;
                }
            }
            if (role == MpaRole.INITIATOR && sentBeforeOutcome != 1) {
                throw new AssertionError("the Initiator sent " + sentBeforeOutcome + " buffers before its outcome");
            }
            ch.advanceTimeBy(10, TimeUnit.MINUTES);
            ch.runPendingTasks();
            drainOutbound(ch);
            upper.check(ch);
        } finally {
            ch.finishAndReleaseAll();
        }
        ALLOC.assertNoLeaks();
    }

    private static MpaConfig config(FuzzedDataProvider data) {
        MpaConfig.Builder b = MpaConfig.builder()
                .revision(data.consumeBoolean() ? 2 : 1)
                .crc(data.consumeBoolean())
                .markers(data.consumeBoolean())
                .ird(data.consumeInt(0, 8))
                .ord(data.consumeInt(0, 8))
                .autoAccept(data.consumeBoolean())
                .rejectDataBeforeReply(data.consumeBoolean())
                .startupTimeout(Duration.ofSeconds(30))
                .requestTimeout(Duration.ofSeconds(5));
        int rtr = data.consumeInt(0, 7);
        if (rtr != 0) {
            List<RtrType> types = new ArrayList<>();
            for (RtrType t : RtrType.values()) {
                if ((rtr & (1 << t.ordinal())) != 0) {
                    types.add(t);
                }
            }
            b.peerToPeer(true).rtrTypes(types)
                    .rtrReplyPolicy(data.consumeBoolean() ? RtrReplyPolicy.ALL_SUPPORTED
                            : RtrReplyPolicy.PREFERRED_ONLY);
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            return MpaConfig.defaults(); // a combination the builder documents as invalid
        }
    }

    private static int drainOutbound(EmbeddedChannel ch) {
        int n = 0;
        Object o;
        while ((o = ch.readOutbound()) != null) {
            ReferenceCountUtil.release(o);
            n++;
        }
        return n;
    }

    /** The layer above: records outcomes and errors, decides a manual Request, releases ULPDUs. */
    private static final class Upper extends ChannelInboundHandlerAdapter {
        final List<MpaStartupEvent> outcomes = new ArrayList<>();
        final List<Throwable> errors = new ArrayList<>();
        private final boolean manual;
        private final int decision;
        private int connectRequests;

        Upper(boolean manual, int decision) {
            this.manual = manual;
            this.decision = decision;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (outcomes.isEmpty() || !(outcomes.get(0) instanceof MpaEstablishedEvent)) {
                ReferenceCountUtil.release(msg);
                throw new AssertionError("a ULPDU before the connection was established: " + outcomes);
            }
            ((ByteBuf) msg).release();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof MpaConnectRequest request) {
                connectRequests++;
                if (!manual || connectRequests > 1) {
                    throw new AssertionError("unexpected " + evt + " (#" + connectRequests + ")");
                }
                switch (decision) {
                    case 0 -> request.accept();
                    case 1 -> request.accept(new byte[] {1, 2, 3, 4});
                    default -> request.reject(new byte[] {'n', 'o'});
                }
            } else if (evt instanceof MpaStartupEvent e) {
                outcomes.add(e);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
        }

        void check(EmbeddedChannel ch) {
            for (Throwable t : errors) {
                if (!(t instanceof MpaException) || outcomes.isEmpty()
                        || !(outcomes.get(0) instanceof MpaEstablishedEvent)) {
                    throw new AssertionError("exception reached the layer above: " + t + " after " + outcomes, t);
                }
            }
            if (outcomes.size() != 1) {
                throw new AssertionError(outcomes.size() + " startup outcomes: " + outcomes);
            }
            MpaStartupEvent outcome = outcomes.get(0);
            if (outcome instanceof MpaStartupFailedEvent failed && failed.connectionClosed() && ch.isOpen()) {
                throw new AssertionError("reported closed but open: " + failed);
            }
            if (outcome instanceof MpaRejectedEvent && ch.pipeline().get(MpaStartupHandler.class) != null) {
                throw new AssertionError("rejected, but the startup handler is still in the pipeline");
            }
        }
    }
}
