package org.iwarp4j.conformance.ddp;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.DdpRecorder;
import org.iwarp4j.conformance.support.DdpRecorder.TaggedDelivered;
import org.iwarp4j.conformance.support.DdpRecorder.UntaggedDelivered;
import org.iwarp4j.conformance.support.Embedded;
import org.iwarp4j.conformance.support.EmbeddedPair;
import org.iwarp4j.conformance.support.MpaLlp;
import org.iwarp4j.conformance.support.TestRegion;
import org.iwarp4j.ddp.DdpError;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.ddp.send.OutboundMessage;
import org.iwarp4j.ddp.testing.CapturingLlp;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.FpduTamper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.iwarp4j.conformance.support.DdpSegments.*;

/**
 * A DDP stream over MPA (RFC 5041 §3, §6, §7): what DDP needs from its lower layer and how the stream
 * behaves on errors and teardown. DDP is joined to MPA by {@link MpaLlp}, a test stand-in for the verbs
 * layer's wiring.
 */
class DdpStreamTest {

    private static final long PD = 1;

    /** An MPA connection (CRC, markers both ways) with a DDP receiver above the Responder's MPA. */
    private static final class Stream implements AutoCloseable {
        final EmbeddedPair pair;
        final DdpRecorder ulp = new DdpRecorder();
        final TestRegion region = TestRegion.writable(0x2a, 0x40000, 8192, PD);
        final DdpReceiver receiver;
        final MpaLlp initiatorLlp;
        final DdpSender initiatorDdp;
        final int before;

        Stream(MpaConfig initiator, MpaConfig responder) {
            pair = new EmbeddedPair(initiator, responder);
            receiver = ulp.receiver(s -> s == region.stag() ? region : null, PD, this);
            var ctx = pair.responder.pipeline().context(pair.responderProbe);
            pair.responder.pipeline().addBefore(ctx.name(), "ddp", new MpaLlp.Inbound(receiver));
            initiatorLlp = new MpaLlp(pair.initiatorProbe.awaitEstablished().sender(), pair.initiator);
            initiatorDdp = new DdpSender(initiatorLlp, Bytes.ALLOC, 3);
            before = pair.initiatorToResponder().length;
        }

        void flush() {
            initiatorLlp.flush();
            pair.pump();
        }

        @Override
        public void close() {
            pair.close();
            region.close();
            ulp.close();
        }
    }

    private static MpaConfig markers() {
        return MpaConfig.builder().markers(true).emss(1460).build();
    }

    /**
     * DDP-01 (RFC 5041 §3): the LLP (MPA over TCP) provides what DDP needs: the current MULPDU, reliable
     * delivery that keeps segment boundaries (each received ULPDU is exactly one DDP segment, its length the
     * segment length), in order, protected by CRC32c. A tagged 5000-octet and an untagged 3000-octet message,
     * cut by DDP at MPA's MULPDU and carried over MPA with markers and CRC, are placed and delivered intact.
     * (Teardown indications and stream labelling through verbs: {@code MpaOverVerbsTest}.)
     */
    @Test
    @Requirement("DDP-01")
    @DisplayName("DDP-01: MPA gives DDP MULPDU, CRC32c and reliable, in-order, boundary-keeping segment delivery")
    void lowerLayerServices() {
        try (Stream s = new Stream(markers(), markers())) {
            MpaParameters params = s.pair.initiatorParameters();
            assertThat(params.crc()).isTrue();
            assertThat(s.initiatorLlp.mulpdu()).isEqualTo(params.mulpdu()).isEqualTo(1442);
            s.ulp.post(s.receiver, 0, 4000);
            byte[] write = Bytes.pattern(5000, 3);
            byte[] send = Bytes.pattern(3000, 4);
            s.initiatorDdp.tagged(0x40, 0x2a, 0x40000, Bytes.direct(write)).writeAll();
            s.initiatorDdp.untagged(0, 0x43, 0, Bytes.direct(send)).writeAll();
            s.flush();
            assertThat(s.initiatorLlp.writes()).hasSize(4 + 3).allMatch(f -> f.isSuccess());
            assertThat(Arrays.copyOf(s.region.content(), 5000)).isEqualTo(write);
            assertThat(s.ulp.all(TaggedDelivered.class))
                    .containsExactly(new TaggedDelivered(0x40, 0x2a, 0x40000, 5000));
            UntaggedDelivered d = s.ulp.all(UntaggedDelivered.class).get(0);
            assertThat(d.length()).isEqualTo(3000);
            assertThat(d.content()).isEqualTo(send);
            assertThat(s.ulp.all(DdpRecorder.Rejected.class)).isEmpty();
        }
    }

    /**
     * DDP-33 (RFC 5041 §7, SHOULD): every LLP error reported to DDP is passed up to the ULP. An MPA CRC error
     * (0x02) on the connection reaches the ULP above DDP once, and DDP places nothing more.
     */
    @Test
    @Requirement("DDP-33")
    @DisplayName("DDP-33: LLP errors reported to DDP reach the ULP, and placement stops")
    void lowerLayerErrorsArePassedUp() {
        try (Stream s = new Stream(MpaConfig.defaults(), MpaConfig.defaults())) {
            s.ulp.post(s.receiver, 0, 64);
            s.initiatorDdp.untagged(0, 0x43, 0, Bytes.direct(Bytes.ascii("before"))).writeAll();
            s.flush();
            int offset = s.pair.initiatorToResponder().length - s.before;
            Embedded.inbound(s.pair.responder, new FpduFraming(true, false, offset)
                    .encode(tagged(true, 0x40, 0x2a, 0x40000, Bytes.pattern(8, 1)), FpduTamper.BAD_CRC));
            List<DdpRecorder.LowerLayer> failures = s.ulp.all(DdpRecorder.LowerLayer.class);
            assertThat(failures).hasSize(1);
            assertThat(failures.get(0).cause()).isInstanceOfSatisfying(MpaException.class,
                    e -> assertThat(e.error()).isEqualTo(MpaError.CRC_ERROR));
            assertThat(s.receiver.isStopped()).isTrue();
            s.receiver.lowerLayerFailed(new IllegalStateException("again"));
            assertThat(s.ulp.all(DdpRecorder.LowerLayer.class)).as("reported once").hasSize(1);
            s.receiver.receive(Bytes.direct(tagged(true, 0x40, 0x2a, 0x40000, Bytes.pattern(8, 1))));
            assertThat(s.region.untouched()).isTrue();
        }
    }

    /**
     * DDP-25 (RFC 5041 §6.2): DDP never starts a stream teardown on its own. After DDP rejected a segment
     * (an RDMA Write to an unknown STag), the MPA connection is still open, DDP's send side is not shut down,
     * and the ULP's next message (a Terminate on QN 2) travels to the peer.
     */
    @Test
    @Requirement("DDP-25")
    @DisplayName("DDP-25: a DDP error does not tear the stream down; the ULP can still send")
    void noTeardownByDdp() {
        try (Stream s = new Stream(MpaConfig.defaults(), MpaConfig.defaults())) {
            s.initiatorDdp.tagged(0x40, 0x99, 0, Bytes.direct(Bytes.pattern(10, 0))).writeAll();
            s.flush();
            assertThat(s.ulp.rejection().error()).isEqualTo(DdpError.INVALID_STAG);
            assertThat(s.pair.responder.isOpen()).isTrue();
            var responderSender = s.pair.responderProbe.awaitEstablished().sender();
            MpaLlp back = new MpaLlp(responderSender, s.pair.responder);
            DdpSender responderDdp = new DdpSender(back, Bytes.ALLOC, 3);
            assertThat(responderDdp.isShutdown()).isFalse();
            responderDdp.untagged(2, 0x47, 0, Bytes.direct(new byte[] {0x11, 0x00, (byte) 0xC0, 0})).writeAll();
            back.flush();
            s.pair.pump();
            List<byte[]> atInitiator = s.pair.initiatorProbe.ulpdus();
            assertThat(atInitiator).hasSize(1);
            assertThat(qnOf(atInitiator.get(0))).isEqualTo(2);
        }
    }

    /**
     * DDP-26 (RFC 5041 §6.2.1): on graceful teardown later ULP requests fail. Once the ULP shut the DDP send
     * side down (RDMAP does so right after its Terminate), new messages are refused (and their buffers
     * released) and a partly written message cannot write another segment. (Finishing the message in progress,
     * half-close reporting and closing the other half through verbs: {@code MpaOverVerbsTest}.)
     */
    @Test
    @Requirement("DDP-26")
    @DisplayName("DDP-26: after the ULP's shutdown, further DDP requests fail")
    void requestsFailAfterShutdown() {
        CapturingLlp llp = new CapturingLlp(100);
        DdpSender s = new DdpSender(llp, Bytes.ALLOC, 3);
        OutboundMessage partly = s.untagged(0, 0x43, 0, Bytes.direct(new byte[300]));
        partly.writeNextSegment();
        s.shutdown();
        assertThatThrownBy(partly::writeNextSegment).isInstanceOf(IllegalStateException.class);
        partly.abandon();
        ByteBuf refused = Bytes.direct(new byte[10]);
        assertThatThrownBy(() -> s.tagged(0x40, 1, 0, refused)).isInstanceOf(IllegalStateException.class);
        assertThat(refused.refCnt()).isZero();
        ByteBuf refused2 = Bytes.direct(new byte[10]);
        assertThatThrownBy(() -> s.untagged(0, 0x43, 0, refused2)).isInstanceOf(IllegalStateException.class);
        assertThat(refused2.refCnt()).isZero();
        assertThat(llp.segments).hasSize(1);
    }

    /**
     * DDP-27 (RFC 5041 §6.2.2): fatal errors are reported to the ULP, outstanding requests complete in error,
     * the ULP may still send while the LLP works, and the stream goes down only when the ULP asks. DDP's
     * part: the error report; the posted receive buffers handed back, oldest first, for completion in
     * error; the send side untouched (no teardown API exists in DDP at all).
     */
    @Test
    @Requirement("DDP-27")
    @DisplayName("DDP-27: a fatal error is reported, posted buffers are handed back, sending stays possible")
    void fatalErrors() {
        try (DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(TaggedBufferRegistry.empty(), PD, this);
            ulp.post(rx, 0, 16);
            ulp.post(rx, 0, 16);
            ulp.post(rx, 1, 16);
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 1, 0, Bytes.pattern(16, 0))));
            rx.receive(Bytes.direct(untagged(true, 0x43, 9, 1, 0, Bytes.pattern(4, 0))));
            assertThat(ulp.rejection().error()).isEqualTo(DdpError.INVALID_QN);
            List<UntaggedBuffer> outstanding = rx.removePosted(0);
            assertThat(outstanding).hasSize(1);
            assertThat(rx.removePosted(1)).hasSize(1);
            assertThat(rx.postedCount(0)).isZero();
            CapturingLlp llp = new CapturingLlp(100);
            DdpSender sender = new DdpSender(llp, Bytes.ALLOC, 3);
            sender.untagged(2, 0x47, 0, Bytes.direct(new byte[4])).writeAll();
            assertThat(llp.segments).hasSize(1);
        }
        assertThat(Arrays.stream(DdpReceiver.class.getMethods()).map(Method::getName))
                .as("DDP offers no way to tear a stream down by itself")
                .noneMatch(n -> n.contains("close") || n.contains("teardown"));
    }
}
