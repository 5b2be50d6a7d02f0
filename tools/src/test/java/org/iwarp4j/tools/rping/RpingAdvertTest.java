package org.iwarp4j.tools.rping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.iwarp4j.verbs.RemoteBuffer;
import org.junit.jupiter.api.Test;

/** How the rping server reads a client's advert, which comes from the network. */
class RpingAdvertTest {

    /**
     * Found by RpingAdvertFuzzTest (corpus entry advert-to-plus-length-wraps): TO 0xffffffffffffffff with
     * a length of 0xffffffff ended the server with "IllegalArgumentException: taggedOffset + length wraps
     * 2^64"; it is the client's error and is now said as such.
     */
    @Test
    void anAdvertWhoseBufferWrapsIsRefusedWithAReason() {
        byte[] advert = HexFormat.of().parseHex("ffffffffffffffffffffffff0a000000");
        assertThatThrownBy(() -> RpingServer.advert(ByteBuffer.wrap(advert)))
                .isInstanceOf(RpingFailure.class)
                .hasMessage("the client advertises an impossible buffer: taggedOffset + length wraps 2^64");
    }

    @Test
    void aValidAdvertIsRead() throws Exception {
        byte[] advert = HexFormat.of().parseHex("00007f0fa83cbc70" + "00012a07" + "00000040");
        RemoteBuffer b = RpingServer.advert(ByteBuffer.wrap(advert));
        assertThat(b.taggedOffset()).isEqualTo(0x7f0fa83cbc70L);
        assertThat(b.stag().value()).isEqualTo(0x00012a07);
        assertThat(b.length()).isEqualTo(64);
    }
}
