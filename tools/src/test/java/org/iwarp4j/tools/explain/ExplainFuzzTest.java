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

    /** Stateless: one for every input. */
    private static final HumanRenderer HUMAN = new HumanRenderer(64);

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
        check(Explainer.explainHex(new HexStream(bytes, fpdu, crc == 2 ? null : crc == 1, markers, streamOffset),
                "fuzz.hex"));
    }

    private static void check(Explanation e) {
        List<Map<String, Object>> entries = TinyJson.parseArrayOfObjects(JsonRenderer.render(e.frames()));
        long errors = 0;
        for (Map<String, Object> entry : entries) {
            if ("error".equals(entry.get("type"))) {
                errors++;
            }
        }
        if (errors != e.errors()) {
            throw new AssertionError("the JSON has " + errors + " error entries, the explanation counts " + e.errors());
        }
        String text = ExplainCommand.human(e, HUMAN);
        if (!text.endsWith(e.summary() + "\n")) {
            throw new AssertionError("the text does not end with the summary: " + e.summary());
        }
    }
}
