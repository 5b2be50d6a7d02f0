package org.iwarp4j.mpa.startup;

import io.netty.buffer.Unpooled;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Request with C=1 gets an accepting Reply with C=1 even from a Responder configured without CRC (RFC 5044
 * §4.4: CRCs are on when either side asks). Regression of interop FINDINGS B2: {@code iwarp rping -s --crc
 * off} answered C=0 to a Linux siw Initiator with {@code mpa_crc_required=Y}, which then refused the
 * connection (RDMA_CM_EVENT_REJECTED, error -111).
 */
class ReplyCrcTest {

    /** siw's Request with mpa_crc_required=Y (rping -c; interop FINDINGS M1, fixture siw-mpa-request-crc). */
    private static final String SIW_REQUEST_CRC = "4d504120494420526571204672616d655002000400010001";
    /** siw's default Request (C=0). */
    private static final String SIW_REQUEST = "4d504120494420526571204672616d651002000400010001";

    private static MpaFrame parse(String hex) {
        return MpaFrameCodec.parse(Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex)));
    }

    private static ResponderStartup.Accepted accept(boolean crc, String request) {
        ResponderStartup r = new ResponderStartup(MpaConfig.builder().crc(crc).build(), 1460);
        r.onRequest(parse(request));
        return r.accept(new ResponderStartup.Acceptance(new byte[0], 1, 1));
    }

    @Test
    void aCrcRequestGetsACrcReplyFromAResponderThatDidNotAsk() {
        ResponderStartup.Accepted a = accept(false, SIW_REQUEST_CRC);
        assertThat(a.reply().crc()).isTrue();
        assertThat(HexFormat.of().formatHex(a.reply().toByteArray()))
                .isEqualTo("4d504120494420526570204672616d65" + "5002000400010001");
        MpaParameters p = a.parameters();
        assertThat(p.crc()).isTrue();
    }

    @Test
    void withoutCrcOnEitherSideTheReplySaysC0() {
        ResponderStartup.Accepted a = accept(false, SIW_REQUEST);
        assertThat(a.reply().crc()).isFalse();
        assertThat(a.parameters().crc()).isFalse();
    }

    @Test
    void aResponderThatAsksSaysC1ToAC0Request() {
        ResponderStartup.Accepted a = accept(true, SIW_REQUEST);
        assertThat(a.reply().crc()).isTrue();
        assertThat(a.parameters().crc()).isTrue();
    }
}
