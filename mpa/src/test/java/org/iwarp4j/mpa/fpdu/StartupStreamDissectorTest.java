package org.iwarp4j.mpa.fpdu;

import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.ConversationStream.Direction;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every golden conversation dissects cleanly in both directions with the settings its frames negotiate. */
class StartupStreamDissectorTest {

    static List<ConversationStream> streams() {
        return GoldenVectors.streams();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void bothDirections(ConversationStream s) {
        StartupStreamDissector.Conversation c = StartupStreamDissector.dissectConversation(
                s.bytes(Direction.I2R), s.bytes(Direction.R2I), 65535);
        assertThat(c.initiatorToResponder().frame()).isNotNull();
        assertThat(c.responderToInitiator().frame()).isNotNull();
        assertThat(c.markersInitiatorToResponder()).isEqualTo(s.name().startsWith("conv-markers"));
        if (c.responderToInitiator().frame().rejected()) {
            assertThat(c.initiatorToResponder().fpdus()).isNull();
            return;
        }
        for (StartupStreamDissector.HalfConnection h : List.of(c.initiatorToResponder(), c.responderToInitiator())) {
            assertThat(h.fpdus().error()).isNull();
            assertThat(h.fpdus().firstError()).isNull();
            assertThat(h.fpdus().consumed() + h.frame().length()).isGreaterThan(h.frame().length() - 1);
            for (DissectedFpdu f : h.fpdus().fpdus()) {
                assertThat(f.crcValid()).isEqualTo(c.crc() ? Boolean.TRUE : null);
            }
        }
        assertThat(c.initiatorToResponder().fpdus().fpdus()).isNotEmpty();
    }
}
