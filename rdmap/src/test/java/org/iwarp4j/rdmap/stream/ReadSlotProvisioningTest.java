package org.iwarp4j.rdmap.stream;

import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_READ;

/**
 * The QN 1 slots of RFC 5040 §5.2 (IRD of them) are made as Read Requests arrive, and DDP accepts exactly the
 * MSNs it would with all IRD slots posted at the start (RFC 5041 §7.1 checks 2 and 5).
 */
class ReadSlotProvisioningTest {

    private static Endpoint endpoint(int ird) {
        Endpoint e = new Endpoint(RdmapStreamConfig.defaults().withReadDepths(ird, 1), 1500);
        TestRegion source = e.memory.register(0x11223344, 0x4000, 256, EnumSet.of(REMOTE_READ), Endpoint.PD);
        source.memory.setBytes(0, Endpoint.pattern(256, 3));
        return e;
    }

    private static byte[] read(int msn) {
        return Ulpdus.readRequest(msn, 0x5, 16L * msn, 16, 0x11223344, 0x4000 + 16L * msn);
    }

    private static List<byte[]> feed(Endpoint e, byte[]... ulpdus) {
        for (byte[] u : ulpdus) {
            e.stream.receive(Conversations.segment(u));
        }
        return Conversations.drain(e);
    }

    private static int postedReadSlots(Endpoint e) {
        return e.stream.receiver().postedCount(RdmapOpcode.QN_READ_REQUEST);
    }

    @Test
    void aStreamNobodyReadsFromHoldsNoReadSlot() {
        try (Endpoint e = endpoint(16)) {
            assertThat(postedReadSlots(e)).isZero();
            assertThat(feed(e, read(1))).hasSize(1);
            // the slot the request used is posted again once its response is out; no other was made
            assertThat(postedReadSlots(e)).isEqualTo(1);
            assertThat(feed(e, read(2))).hasSize(1);
            assertThat(feed(e, read(3))).hasSize(1);
            assertThat(postedReadSlots(e)).isEqualTo(1);
            // two outstanding at once take a second slot
            e.stream.receive(Conversations.segment(read(4)));
            e.stream.receive(Conversations.segment(read(5)));
            assertThat(Conversations.drain(e)).hasSize(2);
            assertThat(postedReadSlots(e)).isEqualTo(2);
            assertThat(e.stream.state()).isEqualTo(RdmapStreamState.OPERATIONAL);
        }
    }

    @Test
    void requestsUpToIrdOutstandingAreAnswered() {
        try (Endpoint e = endpoint(4)) {
            for (int msn = 1; msn <= 4; msn++) {
                e.stream.receive(Conversations.segment(read(msn))); // none answered yet
            }
            assertThat(Conversations.drain(e)).hasSize(4);
            assertThat(e.stream.state()).isEqualTo(RdmapStreamState.OPERATIONAL);
            assertThat(postedReadSlots(e)).isEqualTo(4);
        }
    }

    @Test
    void anMsnBeyondIrdFindsNoBuffer() {
        // IRD 2: the window is MSN 1..2, so MSN 3 first has no buffer (0x1/0x2/0x02), as with both slots posted
        try (Endpoint e = endpoint(2)) {
            byte[] r3 = read(3);
            List<byte[]> sent = feed(e, r3);
            assertThat(sent).hasSize(1);
            assertThat(Ulpdus.hex(sent.get(0))).isEqualTo(Ulpdus.terminate("1202c000" + "002e"
                    + Ulpdus.hex(r3, 0, 18)));
            assertThat(e.stream.terminateSent().cause()).isEqualTo(TerminateCause.DDP_INVALID_MSN_NO_BUFFER);
        }
    }

    @Test
    void anMsnAheadInsideTheWindowWaitsForTheEarlierOne() {
        // IRD 4: MSN 2 before MSN 1 is placed, and delivered after it (RFC 5041 §5.3); both are answered
        try (Endpoint e = endpoint(4)) {
            assertThat(feed(e, read(2))).isEmpty();
            assertThat(feed(e, read(1))).hasSize(2);
            assertThat(e.stream.state()).isEqualTo(RdmapStreamState.OPERATIONAL);
        }
    }
}
