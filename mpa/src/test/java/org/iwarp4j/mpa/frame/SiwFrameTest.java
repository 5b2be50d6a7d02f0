package org.iwarp4j.mpa.frame;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.TestBuffers;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The frames Linux siw really sent in the siw lab (docs/protocol/siw-interop.md §B), copied under test resources. */
class SiwFrameTest {

    static byte[] resource(String name) {
        try (InputStream in = SiwFrameTest.class.getResourceAsStream("/org/iwarp4j/mpa/siw/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] hexResource(String name) {
        return HexFormat.of().parseHex(new String(resource(name), StandardCharsets.US_ASCII).trim());
    }

    static MpaFrame parse(byte[] bytes) {
        ByteBuf in = TestBuffers.heap(bytes);
        try {
            MpaFrame f = MpaFrameCodec.parse(in);
            assertThat(f).isNotNull();
            assertThat(f.length()).isEqualTo(bytes.length);
            return f;
        } finally {
            in.release();
        }
    }

    @Test
    void siwRequestRev2() {
        MpaFrame f = parse(hexResource("siw-mpa-request.hex"));
        assertThat(f.type()).isEqualTo(MpaFrameType.REQUEST);
        assertThat(f.revision()).isEqualTo(2);
        assertThat(f.crc()).isFalse();
        assertThat(f.markers()).isFalse();
        assertThat(f.privateDataLength()).isEqualTo(4);
        assertThat(f.enhancedData()).isEqualTo(new EnhancedConnectionData(false, false, 1, false, false, 1));
        assertThat(f.toByteArray()).isEqualTo(hexResource("siw-mpa-request.hex"));
    }

    @Test
    void siwRequestWithCrcAndP2p() {
        assertThat(parse(hexResource("siw-mpa-request-crc.hex")).crc()).isTrue();
        MpaFrame p2p = parse(hexResource("siw-mpa-request-p2p.hex"));
        assertThat(p2p.enhancedData().peerToPeer()).isTrue();
        assertThat(p2p.enhancedData().rtrTypes()).isEqualTo(Set.of(RtrType.WRITE, RtrType.READ));
        assertThat(p2p.enhancedData().ird()).isEqualTo(1);
        assertThat(p2p.enhancedData().ord()).isEqualTo(1);
    }

    @Test
    void siwRequestRev1AndReply() {
        MpaFrame rev1 = parse(hexResource("siw-mpa-request-rev1.hex"));
        assertThat(rev1.revision()).isEqualTo(1);
        assertThat(rev1.enhancedData()).isNull();
        MpaFrame reply = parse(hexResource("siw-mpa-reply.hex"));
        assertThat(reply.type()).isEqualTo(MpaFrameType.REPLY);
        assertThat(reply.rejected()).isFalse();
        assertThat(reply.enhancedData().ird()).isEqualTo(16);
    }

    /** Every "hex      :" and "sent MPA ..." line of the probe transcripts is a frame we parse. */
    @Test
    void everyFrameInTheTranscripts() {
        Pattern line = Pattern.compile("(?:hex\\s*:|sent MPA [A-Za-z ,=()1]*:)\\s*([0-9a-f]{40,})");
        int frames = 0;
        for (String name : new String[] {"host-client-to-rping-server.txt", "rping-client-to-host-accept.txt",
                "rping-client-to-host-crc.txt", "rping-client-to-host-p2p.txt", "rping-client-to-host-reject.txt",
                "rping-client-to-host-rev1.txt"}) {
            Matcher m = line.matcher(new String(resource(name), StandardCharsets.UTF_8));
            while (m.find()) {
                MpaFrame f = parse(HexFormat.of().parseHex(m.group(1)));
                assertThat(f.toByteArray()).isEqualTo(HexFormat.of().parseHex(m.group(1)));
                frames++;
            }
        }
        assertThat(frames).isGreaterThanOrEqualTo(12);
    }
}
