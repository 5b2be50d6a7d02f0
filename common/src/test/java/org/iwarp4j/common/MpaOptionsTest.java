package org.iwarp4j.common;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class MpaOptionsTest {

    @Test
    void defaultsInteroperateWithLinuxSiw() {
        MpaOptions d = MpaOptions.defaults();
        assertThat(d.revision()).isEqualTo(2);
        assertThat(d.crc()).isTrue();
        assertThat(d.markers()).isFalse();
        assertThat(d.peerToPeer()).isFalse();
        assertThat(d.rtrTypes()).containsExactly(RtrType.WRITE, RtrType.READ, RtrType.SEND);
        assertThat(d.startupTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(d.emss()).isZero();
        assertThat(d.receiveUlpduLimit()).isEqualTo(65535);
    }

    @Test
    void peerToPeerSetsTheOfferedTypesInOrder() {
        MpaOptions o = MpaOptions.builder().peerToPeer(RtrType.READ, RtrType.WRITE).build();
        assertThat(o.peerToPeer()).isTrue();
        assertThat(o.rtrTypes()).containsExactly(RtrType.READ, RtrType.WRITE);
        assertThat(o.toBuilder().build()).isEqualTo(o);
    }

    @Test
    void refusesWhatNoPeerCouldNegotiate() {
        assertThatIllegalArgumentException().isThrownBy(() -> MpaOptions.builder().revision(3).build())
                .withMessageContaining("revision");
        assertThatIllegalArgumentException().isThrownBy(() -> MpaOptions.builder().revision(1).peerToPeer(true).build())
                .withMessageContaining("RFC 6581");
        assertThatIllegalArgumentException().isThrownBy(() -> MpaOptions.builder().rtrTypes(List.of()).build())
                .withMessageContaining("at least one");
        assertThatIllegalArgumentException().isThrownBy(() -> MpaOptions.builder().rtrTypes(RtrType.SEND, RtrType.SEND)
                .build()).withMessageContaining("twice");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> MpaOptions.builder().startupTimeout(Duration.ZERO).build());
        assertThatIllegalArgumentException().isThrownBy(() -> MpaOptions.builder().emss(-1).build());
        assertThatIllegalArgumentException().isThrownBy(() -> MpaOptions.builder().receiveUlpduLimit(127).build());
        assertThatIllegalArgumentException().isThrownBy(() -> MpaOptions.builder().receiveUlpduLimit(65536).build());
        assertThat(MpaOptions.builder().receiveUlpduLimit(128).build().receiveUlpduLimit()).isEqualTo(128);
    }
}
