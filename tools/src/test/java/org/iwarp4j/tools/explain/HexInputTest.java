package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HexInputTest {

    @Test
    void ignoresWhitespaceNewlinesAndComments() throws Exception {
        String text =
                "# an MPA key, split over lines\n4d 50 41\r\n\t20  49 # trailing comment 00 11\n4 4\n#only comment\n";
        assertThat(HexInput.parse(text)).containsExactly(0x4d, 0x50, 0x41, 0x20, 0x49, 0x44);
        assertThat(HexInput.parse("ABcdEf")).containsExactly(0xab, 0xcd, 0xef);
        assertThat(HexInput.parse("  \n# nothing\n")).isEmpty();
    }

    @Test
    void nonHexCharactersAreReportedWithTheirPosition() {
        assertThatThrownBy(() -> HexInput.parse("00 11\n22 3g")).isInstanceOf(HexInput.BadHexException.class)
                .hasMessage("line 2, column 5: 'g' is not a hex digit");
        assertThatThrownBy(() -> HexInput.parse("0x41")).hasMessage("line 1, column 2: 'x' is not a hex digit");
        assertThatThrownBy(() -> HexInput.parse("4\u0661"))
                .hasMessage("line 1, column 2: '\\u0661' is not a hex digit");
    }

    @Test
    void anOddNumberOfDigitsNamesTheUnpairedDigit() {
        assertThatThrownBy(() -> HexInput.parse("00 11\n 2")).isInstanceOf(HexInput.BadHexException.class)
                .hasMessage("odd number of hex digits: the digit at line 2, column 2 has no partner");
    }
}
