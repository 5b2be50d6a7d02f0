package org.iwarp4j.ddp.header;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Field positions of RFC 5041 §4.1–§4.3, network byte order, absolute access at an index. */
class HeaderFlyweightTest {

    @Test
    void offsetsAreThoseOfTheRfcFigures() {
        assertThat(TaggedHeaderFlyweight.STAG_OFFSET).isEqualTo(2);
        assertThat(TaggedHeaderFlyweight.TO_OFFSET).isEqualTo(6);
        assertThat(TaggedHeaderFlyweight.HEADER_LENGTH).isEqualTo(14);
        assertThat(UntaggedHeaderFlyweight.RSVD_ULP_WORD_OFFSET).isEqualTo(2);
        assertThat(UntaggedHeaderFlyweight.QN_OFFSET).isEqualTo(6);
        assertThat(UntaggedHeaderFlyweight.MSN_OFFSET).isEqualTo(10);
        assertThat(UntaggedHeaderFlyweight.MO_OFFSET).isEqualTo(14);
        assertThat(UntaggedHeaderFlyweight.HEADER_LENGTH).isEqualTo(18);
    }

    @Test
    void taggedHeaderIsWrittenBigEndianAtTheIndexWithoutMovingIndexes() {
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer(20).writeZero(20);
        try {
            b.readerIndex(3);
            new TaggedHeaderFlyweight().wrap(b, 3).control(DdpControl.encode(true, false)).rsvdUlp(0x42)
                    .stag(0x01020304).taggedOffset(0x05060708090A0B0CL);
            assertThat(ByteBufUtil.hexDump(b, 3, 14)).isEqualTo("8142010203040506" + "0708090a0b0c");
            assertThat(b.readerIndex()).isEqualTo(3);
            assertThat(b.writerIndex()).isEqualTo(20);
            TaggedHeaderFlyweight h = new TaggedHeaderFlyweight().wrap(b, 3);
            assertThat(h.tagged()).isTrue();
            assertThat(h.last()).isFalse();
            assertThat(h.version()).isEqualTo(1);
            assertThat(h.toString()).contains("stag=0x01020304", "to=0x05060708090a0b0c");
        } finally {
            b.release();
        }
    }

    @Test
    void untaggedHeaderRoundTripsUnsignedValues() {
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer(18).writeZero(18);
        try {
            UntaggedHeaderFlyweight h = new UntaggedHeaderFlyweight().wrap(b, 0).control(0x41).rsvdUlp(0xFF)
                    .rsvdUlpWord(0xFFFFFFFE).queueNumber(0xFFFFFFFF).messageSequenceNumber(0x80000000)
                    .messageOffset(0xFFFFFFFF);
            assertThat(ByteBufUtil.hexDump(b)).isEqualTo("41fffffffffeffffffff80000000ffffffff");
            assertThat(Integer.toUnsignedLong(h.queueNumber())).isEqualTo(0xFFFFFFFFL);
            assertThat(h.rsvdUlp()).isEqualTo(0xFF);
            assertThat(h.toString()).contains("qn=4294967295", "msn=2147483648");
        } finally {
            b.release();
        }
    }

    @Test
    void controlOctetFields() {
        assertThat(DdpControl.encode(true, true)).isEqualTo(0xC1);
        assertThat(DdpControl.encode(true, false)).isEqualTo(0x81);
        assertThat(DdpControl.encode(false, true)).isEqualTo(0x41);
        assertThat(DdpControl.encode(false, false)).isEqualTo(0x01);
        assertThat(DdpControl.reserved(0xFF)).isEqualTo(0xF);
        assertThat(DdpControl.version(0xFE)).isEqualTo(2);
        assertThat(DdpControl.describe(0x7D)).isEqualTo("- L Rsvd=15 DV=1");
    }
}
