package org.iwarp4j.ddp;

import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.ddp.testing.CapturingLlp;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conversion a ULP does from a {@link DdpException} to a Terminate (RFC 5040 §4.8, docs/protocol/rdmap.md §2.5) is
 * mechanical: the RDMA Write of {@code fpdu-rdma-write}, received against a region one octet too short,
 * yields the exception from which the exact Terminate of {@code fpdu-terminate-ddp-tagged-bounds} is
 * built and sent through the DDP sender (QN 2, MSN 1).
 */
class TerminateFromDdpExceptionTest {

    /** What RDMAP does: Terminate Control word, then DDP Segment Length and Terminated DDP Header (D = 1). */
    static ByteBuf terminatePayload(DdpException e) {
        ByteBuf t = ByteBufAllocator.DEFAULT.buffer(4 + 2 + 18);
        t.writeByte(e.layer() << 4 | e.errorType());
        t.writeByte(e.errorCode());
        t.writeByte(e.hasTerminatedDdpHeader() ? 0xC0 : 0x00); // M = D = 1 together (docs/protocol/errors.md E5)
        t.writeByte(0);
        if (e.hasTerminatedDdpHeader()) {
            t.writeShort(e.ddpSegmentLength());
            e.writeTerminatedDdpHeader(t);
        }
        return t;
    }

    @Test
    void boundsViolationBecomesTheGoldenTerminate() {
        GoldenVector write = GoldenVectors.named("fpdu-rdma-write");
        GoldenVector terminate = GoldenVectors.named("fpdu-terminate-ddp-tagged-bounds");
        ByteBuf memory = Bytes.directFilled(63, 0); // the Write carries 64 octets
        try {
            ByteBufTaggedBuffer region = ByteBufTaggedBuffer.writable((int) write.number("ddp.stag"),
                    write.number("ddp.to"), memory, 1);
            RecordingListener listener = new RecordingListener();
            DdpReceiver receiver = new DdpReceiver(s -> s == region.stag() ? region : null, 1, "s", 3, listener);
            receiver.receive(Bytes.pooled(write.hex("ulpdu_hex")));
            assertThat(listener.rejected).hasSize(1);
            DdpException e = listener.rejected.get(0);

            CapturingLlp llp = new CapturingLlp(1454);
            DdpSender sender = new DdpSender(llp, ByteBufAllocator.DEFAULT, 3);
            sender.untagged(2, 0x47, 0, terminatePayload(e)).writeAll();
            sender.shutdown();
            assertThat(llp.segments).hasSize(1);
            assertThat(llp.segments.get(0)).isEqualTo(terminate.hex("ulpdu_hex"));
            assertThat(e.ddpSegmentLength()).isEqualTo(terminate.intField("term.ddp_segment_length"));
        } finally {
            memory.release();
        }
    }
}
