package org.iwarp4j.testkit.peer;

import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.oracle.StartupFrame.Enhanced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The peer's startup-frame view agrees with every golden MPA Request/Reply and rebuilds it. */
class StartupFrameTest {

    static List<GoldenVector> frames() {
        return GoldenVectors.ofKind("mpa-request", "mpa-reply");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frames")
    void parsesAndRebuildsEveryGoldenFrame(GoldenVector v) {
        StartupFrame f = StartupFrame.parse(v.bytes());
        assertThat(f.isRequest()).isEqualTo(v.kind().equals("mpa-request"));
        assertThat(f.isReply()).isEqualTo(v.kind().equals("mpa-reply"));
        assertThat(f.markers()).isEqualTo(v.flag("m"));
        assertThat(f.crc()).isEqualTo(v.flag("c"));
        assertThat(f.rejected()).isEqualTo(v.flag("r"));
        assertThat(f.enhancedFlag()).isEqualTo(v.flag("s_rfc6581"));
        assertThat(f.reservedBits()).isEqualTo(v.intField("res_low4"));
        assertThat(f.revision()).isEqualTo(v.intField("rev"));
        assertThat(f.pdLength()).isEqualTo(v.intField("pd_length"));
        assertThat(f.privateData()).isEqualTo(v.hex("private_data_hex"));
        assertThat(f.length()).isEqualTo(v.intField("length"));
        StartupFrame.Builder b = (f.isRequest() ? StartupFrame.request() : StartupFrame.reply())
                .markers(f.markers()).crc(f.crc()).rejected(f.rejected()).revision(f.revision());
        if (v.has("enh.ird")) {
            Enhanced e = new Enhanced(v.flag("enh.a_peer_to_peer"), v.flag("enh.b_zero_len_send_rtr"),
                    v.intField("enh.ird"), v.flag("enh.c_zero_len_write_rtr"), v.flag("enh.d_zero_len_read_rtr"),
                    v.intField("enh.ord"));
            assertThat(f.enhanced()).isEqualTo(e);
            assertThat(f.ulpPrivateData()).isEqualTo(v.hex("ulp_private_data_hex"));
            b.enhanced(e).privateData(v.hex("ulp_private_data_hex"));
        } else {
            assertThat(f.enhanced()).isNull();
            b.privateData(f.privateData());
        }
        assertThat(b.toBytes()).isEqualTo(v.bytes());
    }

    @Test
    void buildsMalformedFramesOnPurpose() {
        byte[] bad = StartupFrame.request().key("MPA ID Rxq Frame".getBytes()).pdLengthField(600)
                .privateData(new byte[3]).reservedBits(0xF).toBytes();
        StartupFrame f = StartupFrame.parse(bad);
        assertThat(f.isRequest()).isFalse();
        assertThat(f.isReply()).isFalse();
        assertThat(f.pdLength()).isEqualTo(600);
        assertThat(f.privateData()).hasSize(3);
        assertThat(f.reservedBits()).isEqualTo(0xF);
        assertThat(f.toString()).contains("bad key \"MPA ID Rxq Frame\"");
    }
}
