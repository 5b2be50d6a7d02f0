package org.iwarp4j.mpa.frame;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.TestBuffers;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Negative and partial-input cases of the Request/Reply parser (RFC 5044 §7.1.1, §7.1.2; RFC 6581 §6; MPA-24…34). */
class MpaFrameParserTest {

    private static final String REQ_KEY = "4d504120494420526571204672616d65";

    private static MpaFrame parseHex(String hex) {
        ByteBuf in = TestBuffers.heap(HexFormat.of().parseHex(hex));
        try {
            return MpaFrameCodec.parse(in);
        } finally {
            in.release();
        }
    }

    private static MpaException error(String hex) {
        MpaException e = catchThrowableOfType(MpaException.class, () -> parseHex(hex));
        assertThat(e).as("expected an MpaException for %s", hex).isNotNull();
        assertThat(e.error()).isEqualTo(MpaError.INVALID_STARTUP_FRAME);
        assertThat(e.terminateLayer()).isEqualTo(2);
        assertThat(e.terminateErrorType()).isEqualTo(0);
        assertThat(e.terminateErrorCode()).isEqualTo(4);
        return e;
    }

    @Test
    void badKeyIsRejectedAtTheFirstWrongOctet() {
        // "MPB" — wrong at octet 2, only 3 octets present: rejected at once
        MpaException e = error("4d5042");
        assertThat(e.streamOffset()).isEqualTo(2);
        // octet 11 neither 'q' nor 'p'
        assertThat(error("4d504120494420526572").streamOffset()).isEqualTo(9);
        // a plain HTTP request is not an MPA frame
        assertThat(error(HexFormat.of().formatHex("GET / HTTP/1.1\r\n".getBytes())).streamOffset()).isZero();
    }

    @Test
    void pdLengthAbove512IsRejectedFromTheHeaderAlone() {
        // Rev 1, PD_Length 513, no private data present yet
        MpaException e = error(REQ_KEY + "40010201");
        assertThat(e.streamOffset()).isEqualTo(18);
        assertThat(e.getMessage()).contains("513");
        // 512 is fine: needs more
        assertThat(parseHex(REQ_KEY + "40010200")).isNull();
        assertThat(error(REQ_KEY + "4001ffff").getMessage()).contains("65535");
    }

    @Test
    void enhancedFrameNeedsRoomForTheEnhancedData() {
        error(REQ_KEY + "50020003" + "000000");
        error(REQ_KEY + "50020000");
        // S with Rev 1 is a reserved bit (RFC 5044): accepted, no enhanced data
        MpaFrame f = parseHex(REQ_KEY + "50010000");
        assertThat(f.enhanced()).isTrue();
        assertThat(f.enhancedData()).isNull();
        assertThat(f.privateDataLength()).isZero();
    }

    @Test
    void revisionsZeroAndThreeAndUpAreRejected() {
        assertThat(error(REQ_KEY + "40000000").getMessage()).contains("Rev 0");
        assertThat(error(REQ_KEY + "40030000").getMessage()).contains("revision 3");
        error(REQ_KEY + "40ff0000");
    }

    @Test
    void reservedBitsAreKeptButIgnored() {
        // siw's private 0x08 flag with S and C: 0x58
        MpaFrame f = parseHex(REQ_KEY + "5802000400010001");
        assertThat(f.reservedBits()).isEqualTo(0x08);
        assertThat(f.crc()).isTrue();
        assertThat(f.enhancedData()).isEqualTo(new EnhancedConnectionData(false, false, 1, false, false, 1));
        assertThat(f.toByteArray()).isEqualTo(HexFormat.of().parseHex(REQ_KEY + "5802000400010001"));
    }

    @Test
    void parseReadsOnlyItsFrameAndLeavesTheRest() {
        ByteBuf in = TestBuffers.direct(HexFormat.of().parseHex(REQ_KEY + "40010002abcd" + "0011223344"));
        try {
            MpaFrame f = MpaFrameCodec.parse(in);
            assertThat(f.length()).isEqualTo(22);
            assertThat(f.privateData()).containsExactly(0xab, 0xcd);
            assertThat(in.readableBytes()).isEqualTo(27);
        } finally {
            in.release();
        }
    }

    @Test
    void framesCannotBeBuiltOutsideTheRules() {
        assertThatThrownBy(() -> MpaFrame.rev1(MpaFrameType.REQUEST, false, true, false, new byte[513]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MpaFrame.enhanced(MpaFrameType.REQUEST, false, true, false,
                new EnhancedConnectionData(false, false, 1, false, false, 1), new byte[509]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MpaFrame(MpaFrameType.REPLY, false, true, false, true, 0, 2, null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EnhancedConnectionData(false, false, 0x4000, false, false, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(MpaFrame.enhanced(MpaFrameType.REQUEST, false, true, false,
                new EnhancedConnectionData(true, true, 16, true, true, 8), new byte[508]).length()).isEqualTo(532);
    }
}
