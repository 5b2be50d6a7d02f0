package org.iwarp4j.testkit.peer;

import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.ConversationStream.Direction;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The ULPDU timelines of the golden conversations. */
class ConversationReplayTest {

    @Test
    void everyConversationDecodesCleanly() {
        for (ConversationStream s : GoldenVectors.streams()) {
            ConversationReplay r = ConversationReplay.of(s);
            assertThat(r.request().isRequest()).as(s.name()).isTrue();
            assertThat(r.timeline().isEmpty()).as(s.name()).isEqualTo(r.reply().rejected());
        }
    }

    @Test
    void timelineIsCausal() {
        ConversationReplay r = ConversationReplay.of(GoldenVectors.stream("conv-rev2-p2p-read-rtr"));
        assertThat(r.timeline()).extracting(ConversationReplay.Ulpdu::direction)
                .containsExactly(Direction.I2R, Direction.R2I, Direction.I2R);
        // the zero-length Read RTR is a 46-octet ULPDU (Read Request header), its response 14 (tagged header)
        assertThat(r.timeline().get(0).octets()).hasSize(46);
        assertThat(r.timeline().get(1).octets()).hasSize(14);
    }

    @Test
    void markerConversationUsesMarkersBothWays() {
        ConversationReplay r = ConversationReplay.of(GoldenVectors.stream("conv-markers"));
        assertThat(r.markers(Direction.I2R)).isTrue();
        assertThat(r.markers(Direction.R2I)).isTrue();
        assertThat(r.ulpdus(Direction.I2R)).hasSize(7);
        assertThat(r.ulpdus(Direction.R2I)).hasSize(3);
    }
}
