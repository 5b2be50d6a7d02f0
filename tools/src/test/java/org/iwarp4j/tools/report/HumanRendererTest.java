package org.iwarp4j.tools.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class HumanRendererTest {

    @Test
    void alignsLabelsValuesAndRfcSectionsAndIndentsNestedLayers() {
        Layer frame = new Layer("#1 FPDU", null)
                .field("ULPDU_Length", "0x0022 (34)", "RFC 5044 §4.1", "octets of the ULPDU", "ulpduLength",
                        Json.num(34))
                .row("PAD", "2", "RFC 5044 §4.1", "")
                .note("a note")
                .child(new Layer("DDP", "ddp").row("T", "0", "RFC 5041 §4.1", "untagged"));
        assertThat(HumanRenderer.render(List.of(frame))).isEqualTo("""
                #1 FPDU
                  ULPDU_Length  0x0022 (34)  RFC 5044 §4.1  octets of the ULPDU
                  PAD           2            RFC 5044 §4.1
                  a note
                  DDP
                    T  0  RFC 5041 §4.1  untagged
                """);
    }

    @Test
    void dumpsOctetsWithOffsetsAndPrintableAscii() {
        byte[] bytes = "MPA ID Req Frame\u0000\u00ffxyz".getBytes(StandardCharsets.ISO_8859_1);
        Layer frame = new Layer("f", null).dump("Private Data", bytes, "RFC 5044 §7.1.1", "for the ULP");
        assertThat(HumanRenderer.render(List.of(frame))).isEqualTo("""
                f
                  Private Data  21 octets  RFC 5044 §7.1.1  for the ULP
                    0000  4d 50 41 20 49 44 20 52  65 71 20 46 72 61 6d 65  |MPA ID Req Frame|
                    0010  00 ff 78 79 7a                                    |..xyz|
                """);
    }

    @Test
    void aDumpLineOfMoreThanEightOctetsIsPaddedToTheColumn() {
        byte[] bytes = "0123456789abcdefghijklmnopq".getBytes(StandardCharsets.US_ASCII);
        Layer frame = new Layer("f", null).dump("ULPDU", bytes, "", "");
        assertThat(HumanRenderer.render(List.of(frame))).isEqualTo("""
                f
                  ULPDU  27 octets
                    0000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|
                    0010  67 68 69 6a 6b 6c 6d 6e  6f 70 71                 |ghijklmnopq|
                """);
    }

    @Test
    void separatesFramesByABlankLine() {
        assertThat(HumanRenderer.render(List.of(new Layer("a", null), new Layer("b", null)))).isEqualTo("a\n\nb\n");
    }
}
