package org.iwarp4j.mpa.frame;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.mpa.TestBuffers;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every mpa-request / mpa-reply vector parses to its fields and re-encodes to the exact octets (RFC 5044 §7.1.1, RFC
 * 6581 §6, §9).
 */
class MpaFrameVectorTest {

    static List<GoldenVector> frameVectors() {
        return GoldenVectors.ofKind("mpa-request", "mpa-reply");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frameVectors")
    void parsesToTheListedFields(GoldenVector v) {
        ByteBuf in = TestBuffers.direct(v.bytes());
        MpaFrame f;
        try {
            f = MpaFrameCodec.parse(in);
            assertThat(in.readerIndex()).as("parse never consumes").isZero();
        } finally {
            in.release();
        }
        assertThat(f).isNotNull();
        assertThat(f.type()).isEqualTo(v.kind().equals("mpa-request") ? MpaFrameType.REQUEST : MpaFrameType.REPLY);
        assertThat(f.type().keyAscii()).isEqualTo(v.field("key_ascii"));
        assertThat(f.markers()).isEqualTo(v.flag("m"));
        assertThat(f.crc()).isEqualTo(v.flag("c"));
        assertThat(f.rejected()).isEqualTo(v.flag("r"));
        assertThat(f.enhanced()).isEqualTo(v.flag("s_rfc6581"));
        assertThat(f.reservedBits()).isEqualTo(v.intField("res_low4"));
        assertThat(f.revision()).isEqualTo(v.intField("rev"));
        assertThat(f.privateDataLength()).isEqualTo(v.intField("pd_length"));
        assertThat(f.length()).isEqualTo(v.intField("length"));
        if (v.flag("s_rfc6581")) {
            EnhancedConnectionData d = f.enhancedData();
            assertThat(d).isNotNull();
            assertThat(d.peerToPeer()).isEqualTo(v.flag("enh.a_peer_to_peer"));
            assertThat(d.sendRtr()).isEqualTo(v.flag("enh.b_zero_len_send_rtr"));
            assertThat(d.writeRtr()).isEqualTo(v.flag("enh.c_zero_len_write_rtr"));
            assertThat(d.readRtr()).isEqualTo(v.flag("enh.d_zero_len_read_rtr"));
            assertThat(d.ird()).isEqualTo(v.intField("enh.ird"));
            assertThat(d.ord()).isEqualTo(v.intField("enh.ord"));
            assertThat(f.privateData()).isEqualTo(v.hex("ulp_private_data_hex"));
        } else {
            assertThat(f.enhancedData()).isNull();
            assertThat(f.privateData()).isEqualTo(v.hex("private_data_hex"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frameVectors")
    void reEncodesToTheExactOctets(GoldenVector v) {
        ByteBuf in = TestBuffers.direct(v.bytes());
        MpaFrame parsed;
        try {
            parsed = MpaFrameCodec.parse(in);
        } finally {
            in.release();
        }
        // rebuild from the listed fields, not from the parse
        EnhancedConnectionData d = v.flag("s_rfc6581")
                ? new EnhancedConnectionData(v.flag("enh.a_peer_to_peer"), v.flag("enh.b_zero_len_send_rtr"),
                v.intField("enh.ird"), v.flag("enh.c_zero_len_write_rtr"), v.flag("enh.d_zero_len_read_rtr"),
                v.intField("enh.ord"))
                : null;
        MpaFrame built = new MpaFrame(v.kind().equals("mpa-request") ? MpaFrameType.REQUEST : MpaFrameType.REPLY,
                v.flag("m"), v.flag("c"), v.flag("r"), v.flag("s_rfc6581"), v.intField("res_low4"), v.intField("rev"),
                d, d != null ? v.hex("ulp_private_data_hex") : v.hex("private_data_hex"));
        assertThat(built).isEqualTo(parsed);
        assertThat(built.toByteArray()).isEqualTo(v.bytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frameVectors")
    void everyProperPrefixNeedsMore(GoldenVector v) {
        byte[] all = v.bytes();
        for (int n = 0; n < all.length; n++) {
            ByteBuf in = TestBuffers.heap(Arrays.copyOf(all, n));
            try {
                assertThat(MpaFrameCodec.parse(in)).as("prefix of %d octets", n).isNull();
                assertThat(in.readerIndex()).isZero();
            } finally {
                in.release();
            }
        }
    }
}
