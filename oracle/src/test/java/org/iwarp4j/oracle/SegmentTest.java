package org.iwarp4j.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import org.iwarp4j.oracle.SegmentView.Terminate;
import org.iwarp4j.oracle.SegmentView.Terminate.Layout;
import org.junit.jupiter.api.Test;

/** The oracle's DDP/RDMAP codec against octets recorded from Linux siw and the RFC 5040/5041 figures. */
class SegmentTest {

    @Test
    void aTaggedWriteIsFourteenOctetsOfHeader() {
        // siw's copy of our Write to an unknown STag (interop findings F2): c140 deadbe00 0000000000001000
        byte[] w = Segment.tagged(Segment.WRITE, 0xdeadbe00, 0x1000).toBytes();
        assertThat(Hex.of(w)).isEqualTo(Hex.of(Hex.parse("c140deadbe000000000000001000")));
        SegmentView v = SegmentView.parse(w);
        assertThat(v.tagged()).isTrue();
        assertThat(v.last()).isTrue();
        assertThat(v.ddpVersion()).isEqualTo(1);
        assertThat(v.rdmapVersion()).isEqualTo(1);
        assertThat(v.stag()).isEqualTo(0xdeadbe00);
        assertThat(v.to()).isEqualTo(0x1000);
        assertThat(v.payload()).isEmpty();
    }

    @Test
    void aReadRequestCarriesItsTwentyEightOctetHeaderOnQueueOne() {
        // siw's Read RTR (findings M7): QN 1, MSN 1, sink 0/0, size 0, source STag 1 TO 0
        byte[] r = Segment.readRequest(1, 0, 0, 0, 1, 0).toBytes();
        assertThat(Hex.of(r)).isEqualTo(Hex.of(Hex.parse("4141 00000000 00000001 00000001 00000000"
                + " 00000000 0000000000000000 00000000 00000001 0000000000000000")));
        SegmentView.ReadRequest rr = SegmentView.parse(r).readRequest();
        assertThat(rr).isEqualTo(new SegmentView.ReadRequest(0, 0, 0, 1, 0));
    }

    @Test
    void everyFieldCanBeWrong() {
        byte[] s = Segment.send(7, new byte[3]).ddpVersion(2).rdmapVersion(3).ddpReserved(0xF).rdmapReserved(2)
                .qn(5).mo(9).last(false).reservedUlp(0x12345678).toBytes();
        SegmentView v = SegmentView.parse(s);
        assertThat(v.ddpVersion()).isEqualTo(2);
        assertThat(v.rdmapVersion()).isEqualTo(3);
        assertThat(v.ddpReserved()).isEqualTo(0xF);
        assertThat(v.rdmapReserved()).isEqualTo(2);
        assertThat(v.qn()).isEqualTo(5);
        assertThat(v.msn()).isEqualTo(7);
        assertThat(v.mo()).isEqualTo(9);
        assertThat(v.last()).isFalse();
        assertThat(v.reservedUlp()).isEqualTo(0x12345678);
        assertThat(v.payload()).hasSize(3);
    }

    @Test
    void aShortSegmentIsIncompleteNotAnError() {
        SegmentView v = SegmentView.parse(new byte[] {(byte) 0xc1, 0x40, 0, 0});
        assertThat(v.complete()).isFalse();
        assertThat(v.payload()).isEmpty();
        assertThat(v.describe()).contains("shorter than its 14-octet tagged DDP header");
        assertThat(SegmentView.parse(new byte[0]).complete()).isFalse();
    }

    @Test
    void anRfcTerminateReadsAsTheRfcLaysItOut() {
        Segment w = Segment.tagged(Segment.WRITE, 0xdeadbe00, 0).payload(16);
        byte[] headers = new byte[2 + 14];
        headers[1] = 30;
        System.arraycopy(w.header(), 0, headers, 2, 14);
        byte[] t = Segment.terminate(1, 1, 0, true, true, false, headers).toBytes();
        Terminate term = SegmentView.parse(t).terminate();
        assertThat(term.evidentLayout()).isEqualTo(Layout.RFC);
        Terminate.Reading r = term.reading(Layout.RFC);
        assertThat(r.cause()).isEqualTo("0x1/0x1/0x00");
        assertThat(r.flags()).isEqualTo("MD-");
        assertThat(r.segmentLength()).isEqualTo(30);
        assertThat(r.ddpHeader()).isEqualTo(w.header());
        assertThat(r.reservedBits()).isZero();
        assertThat(r.trailing()).isZero();
    }

    @Test
    void siwsMirroredTerminateReadsRightOnlyMirrored() {
        // findings F2 (ii): 11000300 0010 c140deadbe000000000000001000 — siw meant 1/1/00 with M and D
        byte[] body = Hex.parse("11000300 0010 c140deadbe000000000000001000");
        byte[] t = Segment.terminate(0, 0, 0, false, false, false, new byte[0]).payload(body).toBytes();
        Terminate term = SegmentView.parse(t).terminate();
        assertThat(term.evidentLayout()).isEqualTo(Layout.MIRRORED);
        Terminate.Reading m = term.reading(Layout.MIRRORED);
        assertThat(m.cause()).isEqualTo("0x1/0x1/0x00");
        assertThat(m.flags()).isEqualTo("MD-");
        assertThat(m.segmentLength()).isEqualTo(16);
        assertThat(m.ddpHeader()).hasSize(14);
        Terminate.Reading rfc = term.reading(Layout.RFC);
        assertThat(rfc.flags()).isEqualTo("---");
        assertThat(rfc.reservedBits()).isEqualTo(0x300);
    }

    @Test
    void withoutFlagsBothLayoutsFitAndNeitherIsEvident() {
        // siw's "unexpected opcode" 20 06 00 00: 0/2/06 mirrored, 2/0/06 as the RFC reads it
        byte[] t = Segment.terminate(0, 0, 0, false, false, false, new byte[0])
                .payload(Hex.parse("20060000")).toBytes();
        Terminate term = SegmentView.parse(t).terminate();
        assertThat(term.evidentLayout()).isNull();
        assertThat(term.reading(Layout.MIRRORED).cause()).isEqualTo("0x0/0x2/0x06");
        assertThat(term.reading(Layout.RFC).cause()).isEqualTo("0x2/0x0/0x06");
    }

    @Test
    void aTerminateShorterThanItsFlagsSayIsTruncated() {
        byte[] t = Segment.terminate(1, 1, 0, true, true, false, new byte[] {0, 30, (byte) 0xc1}).toBytes();
        assertThat(SegmentView.parse(t).terminate().reading(Layout.RFC).truncated()).isTrue();
    }
}
