package org.iwarp4j.mpa;

import org.iwarp4j.mpa.fpdu.FpduLayout;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

/** MULPDU (RFC 5044 §4.5, §3; MPA-03, MPA-20, MPA-21) against mpulpdu-table.vec and the formula. */
class MulpduTest {

    @Test
    void rawFormulaMatchesEveryTableEntry() {
        GoldenVector table = GoldenVectors.named("mulpdu-table");
        assertThat(table.kind()).isEqualTo("table");
        String[] entries = table.field("entries").trim().split("\\s+");
        assertThat(entries).hasSizeGreaterThanOrEqualTo(8);
        for (String e : entries) {
            String[] p = e.split(":");
            int emss = Integer.parseInt(p[0]);
            assertThat(Mulpdu.formula(emss, false)).as("EMSS %d without markers", emss)
                    .isEqualTo(Integer.parseInt(p[1]));
            assertThat(Mulpdu.formula(emss, true)).as("EMSS %d with markers", emss).isEqualTo(Integer.parseInt(p[2]));
        }
    }

    @Test
    void reportedValueIsClampedTo128And64768() {
        // EMSS 128 → raw 122/118 but MPA never reports below 128 (MPA-21)
        assertThat(Mulpdu.of(128, false)).isEqualTo(128);
        assertThat(Mulpdu.of(128, true)).isEqualTo(128);
        // EMSS 65495 → raw 65486/64974, never above 64768 (MPA-03)
        assertThat(Mulpdu.of(65495, false)).isEqualTo(64768);
        assertThat(Mulpdu.of(65495, true)).isEqualTo(64768);
        assertThat(Mulpdu.of(1460, false)).isEqualTo(1454);
        assertThat(Mulpdu.of(1460, true)).isEqualTo(1442);
        assertThat(Mulpdu.of(1, true)).isEqualTo(128);
        assertThatThrownBy(() -> Mulpdu.formula(0, false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyEmssFollowsSection45() {
        qt().withExamples(2000).forAll(integers().between(1, 1 << 20), integers().between(0, 1))
                .checkAssert((emss, m) -> {
            boolean markers = m == 1;
            int raw = Mulpdu.formula(emss, markers);
            // §4.5: EMSS − (6 + 4·ceil(EMSS/512) [markers] + EMSS mod 4)
            long expected = (long) emss - 6 - (emss % 4) - (markers ? 4L * ((emss + 511L) / 512) : 0);
            assertThat((long) raw).isEqualTo(expected);
            int reported = Mulpdu.of(emss, markers);
            assertThat(reported).isBetween(128, 64768);
            if (raw >= 128 && raw <= 64768) {
                assertThat(reported).isEqualTo(raw);
                // an FPDU carrying a MULPDU-sized ULPDU fits EMSS: 2 + MULPDU + PAD + 4 (+ markers) ≤ EMSS
                int plain = 2 + raw + FpduLayout.padLength(raw) + 4;
                int markerOctets = markers ? 4 * ((emss + 511) / 512) : 0;
                assertThat(plain + markerOctets).isLessThanOrEqualTo(emss);
            }
        });
    }
}
