package org.iwarp4j.rdmap.stream;

import org.iwarp4j.common.RtrType;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.testing.CapturingLlp;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.testkit.FailingAllocator;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * RFC 6581 §9.3 [MPA-76]: a local error while the initiator is still in the enhanced connection setup
 * (its RTR not yet handed to MPA) is reported with Terminate 0x2/0x0/0x05 ("Local catastrophic error"),
 * no copied header, as the first FPDU; once the RTR is out the same failure is RDMAP's Local Catastrophic
 * Error 0x0/0x0/0x00 (RFC 5040 §4.8). The failure is injected through the stream's allocator, which
 * refuses exactly one allocation.
 */
class EnhancedSetupErrorTest {

    private static RdmapStream stream(CapturingLlp llp, ByteBufAllocator allocator, RecordingListener listener) {
        return new RdmapStream(RdmapStreamConfig.defaults().withProtectionDomain(Endpoint.PD, new Object()),
                new TestMemory(), new LockingAtomicExecutor(), llp, allocator, listener);
    }

    private static int drain(RdmapStream s) {
        int n = 0;
        while (s.writeNextSegment()) {
            n++;
        }
        s.segmentsWritten(n);
        return n;
    }

    @Test
    void aFailedRtrIsReportedAsMpaLocalCatastrophicError() {
        RecordingListener listener = new RecordingListener();
        CapturingLlp llp = new CapturingLlp(1500);
        // allocation 1 is the Write RTR's DDP header
        RdmapStream s = stream(llp, new FailingAllocator(1), listener);
        s.sendRtr(RtrType.WRITE);
        assertThat(drain(s)).isEqualTo(1);
        assertThat(s.state()).isEqualTo(RdmapStreamState.ERROR);
        assertThat(s.firstError().cause()).isEqualTo(TerminateCause.MPA_LOCAL_CATASTROPHIC);
        // untagged QN 2 MSN 1 Terminate: Layer 2 / EType 0 / Code 0x05, M=D=R=0, no header
        assertThat(Ulpdus.hex(llp.takeBytes())).isEqualTo("41470000000000000002000000010000000020050000");
        assertThat(llp.takeBytes()).as("nothing after the Terminate").isNull();
        s.close();
    }

    @Test
    void theSameFailureAfterTheRtrIsRdmapLocalCatastrophic() {
        RecordingListener listener = new RecordingListener();
        CapturingLlp llp = new CapturingLlp(1500);
        // allocation 1: the RTR header; allocation 2: the Immediate Data message's RDMAP header
        RdmapStream s = stream(llp, new FailingAllocator(2), listener);
        s.sendRtr(RtrType.WRITE);
        drain(s);
        assertThat(Ulpdus.hex(llp.takeBytes())).isEqualTo("c140000000010000000000000000");
        s.submit(new RdmapOperation.ImmediateData(7, 0x1122334455667788L, false, false));
        drain(s);
        assertThat(s.firstError().cause()).isEqualTo(TerminateCause.RDMAP_LOCAL_CATASTROPHIC);
        assertThat(Ulpdus.hex(llp.takeBytes())).isEqualTo("41470000000000000002000000010000000000000000");
        s.close();
    }
}
