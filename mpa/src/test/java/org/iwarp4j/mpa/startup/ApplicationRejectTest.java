package org.iwarp4j.mpa.startup;

import io.netty.buffer.Unpooled;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaRejection;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application's reject (R=1 for its own reasons) must not read as the RFC 6581 §9.1 "insufficient IRD"
 * reject, whose Reply ORD exceeds the Initiator's IRD (interop FINDINGS B1: {@code iwarp rping -s --reject}
 * made {@code iwarp rping -c} report "Insufficient IRD resources").
 */
class ApplicationRejectTest {

    /** siw's default Request (rping -c, interop FINDINGS M1): Rev 2, S=1, IRD = ORD = 1. */
    private static final String SIW_REQUEST = "4d504120494420526571204672616d651002000400010001";

    @Test
    void anApplicationRejectOfAnIrd1InitiatorCarriesAnOrdItCanMeet() {
        ResponderStartup r = new ResponderStartup(MpaConfig.builder().ird(16).ord(16).build(), 1460);
        r.onRequest(MpaFrameCodec.parse(
                Unpooled.wrappedBuffer(HexFormat.of().parseHex(SIW_REQUEST))));
        MpaRejection rej = r.reject(new byte[] {1, 2, 3, 4, 5}, -1);
        EnhancedConnectionData d = rej.reply().enhancedData();
        assertThat(rej.reply().rejected()).isTrue();
        assertThat(d.ord()).isEqualTo(1);
        assertThat(d.ird()).isEqualTo(16);
        assertThat(rej.reason()).isNull();
        // C=1 (configured), R=1, S=1, Rev 2, PD_Length 4 + 5, IRD 16, ORD 1, private data
        assertThat(HexFormat.of().formatHex(rej.reply().toByteArray()))
                .isEqualTo("4d504120494420526570204672616d65" + "7002" + "0009" + "0010" + "0001" + "0102030405");
    }

    @Test
    void theInitiatorSeesAPlainRejectWithItsPrivateData() {
        InitiatorStartup i = new InitiatorStartup(MpaConfig.builder().ird(1).ord(1).build(), 1460);
        ResponderStartup r = new ResponderStartup(MpaConfig.defaults(), 1460);
        r.onRequest(i.request());
        MpaRejection seen = (MpaRejection) i.onReply(r.reject(new byte[] {9}, -1).reply());
        assertThat(seen.reason()).as("not an insufficient-IRD reject").isNull();
        assertThat(seen.replyPrivateData()).containsExactly(9);
    }

    @Test
    void noNegotiationKeepsTheConfiguredOrd() {
        InitiatorStartup i = new InitiatorStartup(MpaConfig.builder().ird(EnhancedConnectionData.NO_NEGOTIATION)
                .ord(1).build(), 1460);
        ResponderStartup r = new ResponderStartup(MpaConfig.builder().ord(16).build(), 1460);
        r.onRequest(i.request());
        assertThat(r.reject(new byte[0], -1).reply().enhancedData().ord()).isEqualTo(16);
    }
}
