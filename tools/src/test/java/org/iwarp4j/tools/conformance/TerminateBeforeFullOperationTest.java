package org.iwarp4j.tools.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** How check 2.10 names what siw sends after a Reply with the Request key (FINDINGS M24). */
class TerminateBeforeFullOperationTest {

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    @Test
    void siwsTerminateIsReadBothWays() {
        // recorded in the lab: siw's answer to our Reply that carried the Request key
        String t = MpaStartupChecks.terminateIn(hex("00164147000000000000000200000001000000000204000000000000"));
        assertThat(t).isEqualTo("a Terminate FPDU before Full Operation: "
                + "00164147000000000000000200000001000000000204000000000000 (read bit-mirrored 0x2/0x0/0x04, "
                + "read as RFC 5040 §4.8 lays it out 0x0/0x2/0x04)");
    }

    @Test
    void otherOctetsAreNoTerminate() {
        assertThat(MpaStartupChecks.terminateIn(hex("00"))).isNull();
        // an FPDU of the right length that carries a Send
        assertThat(MpaStartupChecks.terminateIn(hex("0012414300000000000000000000000100000000" + "00000000")))
                .isNull();
        // a Terminate cut short
        assertThat(MpaStartupChecks.terminateIn(hex("001641470000000000000002000000010000000002040000"))).isNull();
        // a Terminate followed by more octets
        assertThat(MpaStartupChecks.terminateIn(hex("0016414700000000000000020000000100000000020400000000000000")))
                .isNull();
    }
}
