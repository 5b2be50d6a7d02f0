package org.iwarp4j.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.PeerProfile;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code --peer} and {@code --nudge}: the peer profile the connecting tools give the connection manager. */
class ConnectionOptionsTest {

    @Command(name = "tool")
    static final class Tool implements Runnable {
        @Mixin
        ConnectionOptions connection;

        @Override
        public void run() {
        }
    }

    private static ConnectionOptions parse(String... args) {
        Tool t = new Tool();
        new CommandLine(t).parseArgs(args);
        return t.connection;
    }

    @Test
    void linuxSiwByDefaultWithItsNudge() {
        ConnectionOptions c = parse();
        assertThat(c.peerProfile()).isEqualTo(PeerProfile.LINUX_SIW);
        assertThat(c.peerProfile().firstFpduNudge()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.applyTo(ConnectOptions.builder()).build().peerProfile()).isEqualTo(PeerProfile.LINUX_SIW);
        assertThat(c.applyTo(ListenOptions.builder()).build().peerProfile()).isEqualTo(PeerProfile.LINUX_SIW);
    }

    @Test
    void nudgeOverridesTheProfilesNudgeOnly() {
        assertThat(parse("--nudge", "0").peerProfile())
                .isEqualTo(PeerProfile.LINUX_SIW.withFirstFpduNudge(Duration.ZERO));
        assertThat(parse("--nudge", "300").peerProfile())
                .isEqualTo(PeerProfile.LINUX_SIW.withFirstFpduNudge(Duration.ofMillis(300)));
        assertThat(parse("--peer", "rfc", "--nudge", "300").peerProfile())
                .isEqualTo(PeerProfile.RFC_STRICT.withFirstFpduNudge(Duration.ofMillis(300)));
    }

    @Test
    void rfcIsStrictWithoutANudge() {
        ConnectionOptions c = parse("--peer", "rfc");
        assertThat(c.peerProfile()).isEqualTo(PeerProfile.RFC_STRICT);
        assertThat(c.applyTo(ConnectOptions.builder()).build().peerProfile()).isEqualTo(PeerProfile.RFC_STRICT);
        assertThat(parse("--peer", "siw").peerProfile()).isEqualTo(PeerProfile.LINUX_SIW);
    }

    @Test
    void anotherPeerIsAUsageError() {
        assertThatThrownBy(() -> parse("--peer", "chelsio")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("neither siw nor rfc");
    }
}
