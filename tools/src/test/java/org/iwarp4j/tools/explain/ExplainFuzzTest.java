package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import java.util.Map;
import org.iwarp4j.tools.pcap.Capture;
import org.iwarp4j.tools.pcap.PcapFormatException;
import org.iwarp4j.tools.report.HumanRenderer;
import org.iwarp4j.tools.report.JsonRenderer;
import org.iwarp4j.tools.report.TinyJson;

/**
 * Whatever the octets, explain never fails with an exception: a capture is either refused as a
 * file ({@link PcapFormatException}) or explained, and the explanation is valid JSON whose error
 * entries match the error count. Seeds: the golden pcaps and vectors (committed under
 * {@code ExplainFuzzTestInputs}); regression mode in the normal build.
 */
class ExplainFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void anyCaptureIsExplainedOrRefused(byte[] pcap) {
        Capture capture;
        try {
            capture = Capture.read(pcap);
        } catch (PcapFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        check(Explainer.explainCapture(capture, "fuzz.pcap"));
    }

    @FuzzTest(maxDuration = "30s")
    void anyOctetsAreExplained(FuzzedDataProvider data) {
        boolean fpdu = data.consumeBoolean();
        int crc = data.consumeInt(0, 2);
        boolean markers = data.consumeBoolean();
        long streamOffset = fpdu && markers ? (data.consumeInt() & 0xfffffffcL) : 0;
        byte[] bytes = data.consumeRemainingAsBytes();
        check(Explainer.explainHex(new HexStream(bytes, fpdu, crc == 2 ? null : crc == 1, markers, streamOffset), "fuzz.hex"));
    }

    private static void check(Explanation e) {
        List<Map<String, Object>> entries = TinyJson.parseArrayOfObjects(JsonRenderer.render(e.frames()));
        assertThat(entries.stream().filter(x -> x.get("type").equals("error")).count()).isEqualTo(e.errors());
        assertThat(ExplainCommand.human(e, new HumanRenderer(64))).endsWith(e.summary() + "\n");
    }
}
