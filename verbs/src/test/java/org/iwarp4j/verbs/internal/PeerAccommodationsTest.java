package org.iwarp4j.verbs.internal;

import org.iwarp4j.mpa.MpaException.UnverifiedFpdu;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.PeerProfile;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

class PeerAccommodationsTest {

    /** siw's setup Terminate 2/0/07 as its first FPDU, ULPDU only (FINDINGS M17; SiwInteropRegressionTest). */
    private static final byte[] SIW_SETUP_TERMINATE = HexFormat.of().parseHex("4147" + "00000000" + "00000002"
            + "00000001" + "00000000" + "02070000" + "0000");

    private static final PeerAccommodations SIW = new PeerAccommodations(Duration.ZERO, true, TerminateLayout.RFC);

    @Test
    void siwsCrcLessSetupTerminateIsTakenAsItsTerminate() {
        assertThat(SIW.takesAsSetupTerminate(new UnverifiedFpdu(SIW_SETUP_TERMINATE, 0))).isTrue();
    }

    @Test
    void nothingElseIsTakenUnverified() {
        assertThat(SIW.takesAsSetupTerminate(null)).isFalse();
        assertThat(SIW.takesAsSetupTerminate(new UnverifiedFpdu(SIW_SETUP_TERMINATE, 0x1234))).as("a CRC field")
                .isFalse();
        byte[] tagged = SIW_SETUP_TERMINATE.clone();
        tagged[0] |= (byte) 0x80;
        assertThat(SIW.takesAsSetupTerminate(new UnverifiedFpdu(tagged, 0))).as("tagged").isFalse();
        byte[] send = SIW_SETUP_TERMINATE.clone();
        send[1] = 0x43;
        assertThat(SIW.takesAsSetupTerminate(new UnverifiedFpdu(send, 0))).as("a Send").isFalse();
        assertThat(SIW.takesAsSetupTerminate(new UnverifiedFpdu(Arrays.copyOf(SIW_SETUP_TERMINATE, 21), 0)))
                .as("shorter than a header and a control word").isFalse();
        PeerAccommodations strict = new PeerAccommodations(Duration.ZERO, false, TerminateLayout.RFC);
        assertThat(strict.takesAsSetupTerminate(new UnverifiedFpdu(SIW_SETUP_TERMINATE, 0))).isFalse();
    }

    @Test
    void builtFromThePeerProfile() {
        PeerAccommodations initiator = PeerAccommodations.of(ConnectOptions.builder()
                .peerProfile(PeerProfile.LINUX_SIW.withFirstFpduNudge(Duration.ofMillis(200))).build());
        assertThat(initiator).isEqualTo(new PeerAccommodations(Duration.ofMillis(200), true,
                TerminateLayout.SIW_MIRRORED));
        assertThat(initiator.nudges()).isTrue();
        PeerAccommodations responder = PeerAccommodations.of(ListenOptions.builder()
                .peerProfile(PeerProfile.LINUX_SIW).build());
        assertThat(responder).as("a Responder never nudges").isEqualTo(new PeerAccommodations(Duration.ZERO, true,
                TerminateLayout.SIW_MIRRORED));
        assertThat(PeerAccommodations.of(ConnectOptions.defaults())).as("RFC_STRICT, the default").isEqualTo(
                new PeerAccommodations(Duration.ZERO, false, TerminateLayout.RFC));
    }
}
