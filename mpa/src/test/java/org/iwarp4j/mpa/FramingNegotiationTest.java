package org.iwarp4j.mpa;

import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FramingNegotiationTest {

    private static MpaFrame frame(MpaFrameType type, boolean m, boolean c) {
        return MpaFrame.rev1(type, m, c, false, new byte[0]);
    }

    @Test
    void crcIsOnWhenEitherFrameAsksForIt() {
        // RFC 5044 §4.4
        for (boolean req : new boolean[] {false, true}) {
            for (boolean rep : new boolean[] {false, true}) {
                assertThat(FramingNegotiation.crc(frame(MpaFrameType.REQUEST, false, req),
                        frame(MpaFrameType.REPLY, false, rep))).isEqualTo(req || rep);
            }
        }
    }

    @Test
    void markersFollowThePeersMBitPerDirection() {
        // RFC 5044 §7.1.1, docs/protocol/mpa.md §7.3: Request M=1, Reply M=0 → only the Responder inserts markers.
        MpaFrame request = frame(MpaFrameType.REQUEST, true, false);
        MpaFrame reply = frame(MpaFrameType.REPLY, false, false);
        assertThat(FramingNegotiation.senderInsertsMarkers(request)).as("Responder→Initiator").isTrue();
        assertThat(FramingNegotiation.senderInsertsMarkers(reply)).as("Initiator→Responder").isFalse();
    }

    @Test
    void detailOmitsCodeAndOffset() {
        MpaException e = new MpaException(MpaError.INVALID_STARTUP_FRAME, "bad key", 9);
        assertThat(e.getMessage()).startsWith("0x2/0x0/0x04").contains("at stream offset 9: bad key");
        assertThat(e.detail()).isEqualTo("bad key");
    }
}
