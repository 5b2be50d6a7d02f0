package org.iwarp4j.mpa;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class MpaConfigTest {

    @Test
    void toBuilderKeepsADerivedRequestTimeoutDerived() {
        MpaConfig shorter = MpaConfig.defaults().toBuilder().startupTimeout(Duration.ofSeconds(2)).build();
        assertThat(shorter.requestTimeout()).isEqualTo(Duration.ofSeconds(2));
        MpaConfig explicit = MpaConfig.builder().requestTimeout(Duration.ofSeconds(3)).build();
        assertThat(explicit.toBuilder().build().requestTimeout()).isEqualTo(Duration.ofSeconds(3));
    }
}
