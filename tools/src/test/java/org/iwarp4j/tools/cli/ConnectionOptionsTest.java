package org.iwarp4j.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.OptionalInt;
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

        @Mixin
        ResponderOptions responder;

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

    @Test
    void irdOrdAndRequiredOrdOutside14BitsAreUsageErrors() {
        assertThat(validationError("--ird", "16384")).isEqualTo("--ird/--ord must be 0..16383: 16384");
        assertThat(validationError("--ord", "-1")).isEqualTo("--ird/--ord must be 0..16383: -1");
        assertThat(validationError("--required-ord", "16384")).isEqualTo("--required-ord must be 0..16383: 16384");
        assertThat(validationError("--ird", "16383", "--ord", "0", "--required-ord", "16383")).isNull();
    }

    /** The message of the usage error the options' checks raise, or {@code null}. */
    private static String validationError(String... args) {
        Tool t = new Tool();
        CommandLine cl = new CommandLine(t);
        cl.parseArgs(args);
        try {
            t.connection.validate(cl);
            t.responder.validate(cl);
            return null;
        } catch (CommandLine.ParameterException e) {
            return e.getMessage();
        }
    }

    @Test
    void aServersIrdOptionIsRaisedToTheClientsOrd() {
        // --ird 4 to a client with ORD 128: RFC 6581 §9.1 lets the Responder raise its IRD, as the option says
        assertThat(parse("--ird", "4").responderIrd(OptionalInt.of(128), 128, OptionalInt.empty())).hasValue(128);
        assertThat(parse("--ird", "4").responderIrd(OptionalInt.of(200), 128, OptionalInt.empty())).hasValue(128);
        assertThat(parse("--ird", "16").responderIrd(OptionalInt.of(1), 128, OptionalInt.empty())).hasValue(16);
        assertThat(parse("--ird", "4").responderIrd(OptionalInt.empty(), 128, OptionalInt.empty())).hasValue(4);
        assertThat(parse().responderIrd(OptionalInt.of(8), 128, OptionalInt.of(8))).as("derived").hasValue(8);
    }
}
