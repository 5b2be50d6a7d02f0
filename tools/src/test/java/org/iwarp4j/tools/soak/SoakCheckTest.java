package org.iwarp4j.tools.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The soak's own judges: a changed octet is found, memory that grows is called growing, noise is not. */
class SoakCheckTest {

    @Test
    void aSendPayloadIsCheckedOctetByOctet() {
        ByteBuffer memory = ByteBuffer.allocate(4096);
        SoakLayout.sendPayload(memory, 100, 42, 1000);
        assertThat(SoakLayout.checkSendPayload(memory, 100, 1000)).isEqualTo(-1);
        memory.put(100 + 8 + 517, (byte) (memory.get(100 + 8 + 517) ^ 1));
        assertThat(SoakLayout.checkSendPayload(memory, 100, 1000)).isEqualTo(517);
        assertThat(SoakLayout.checkSendPayload(memory, 100, 4)).as("shorter than its seed").isZero();
    }

    @Test
    void steadyGrowthIsGrowingAndNoiseIsFlat() {
        SoakMemory growing = new SoakMemory();
        SoakMemory noisy = new SoakMemory();
        for (int i = 0; i <= 120; i++) {
            double minutes = i / 4.0; // 30 minutes, a sample every 15 s
            long mib = 1 << 20;
            // 3 MiB/min of heap that never comes back.
            growing.add(new SoakMemory.Sample(minutes, (100 + (long) (3 * minutes)) * mib, 50 * mib, 300 * mib));
            // Connections coming and going: ±20 MiB of direct memory, no trend.
            noisy.add(new SoakMemory.Sample(minutes, 100 * mib, (50 + (i % 2 == 0 ? 20 : -20)) * mib, 300 * mib));
        }
        List<SoakMemory.Slope> g = growing.slopes();
        assertThat(g).extracting(SoakMemory.Slope::name).containsExactly("heap", "direct", "rss");
        assertThat(g.get(0).growing()).as(g.get(0).toString()).isTrue();
        assertThat(g.get(0).mibPerMinute()).isBetween(2.9, 3.1);
        assertThat(g.get(1).growing()).isFalse();
        assertThat(noisy.slopes()).noneMatch(SoakMemory.Slope::growing);
    }
}
