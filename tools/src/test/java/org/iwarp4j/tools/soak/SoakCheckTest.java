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
            growing.add(new SoakMemory.Sample(minutes, (100 + (long) (3 * minutes)) * mib, 50 * mib, 8 * mib,
                    300 * mib));
            // Connections coming and going: ±20 MiB of direct memory, no trend.
            noisy.add(new SoakMemory.Sample(minutes, 100 * mib, (50 + (i % 2 == 0 ? 20 : -20)) * mib, 8 * mib,
                    300 * mib));
        }
        List<SoakMemory.Slope> g = growing.slopes();
        assertThat(g).extracting(SoakMemory.Slope::name).containsExactly("heap", "direct", "pool", "rss");
        assertThat(g.get(0).growing()).as(g.get(0).toString()).isTrue();
        assertThat(g.get(0).mibPerMinute()).isBetween(2.9, 3.1);
        assertThat(g.get(1).growing()).isFalse();
        assertThat(noisy.slopes()).noneMatch(SoakMemory.Slope::growing);
    }

    /**
     * Regions that are never freed grow the direct memory outside the pool in a run of any length; the pool's
     * and the resident set's growth are judged only in a long run (a short one cannot tell them from demand or
     * the JVM's own warm-up that levels off).
     */
    @Test
    void regionsThatStayAreGrowingInAShortRunPoolAndRssOnlyInALongOne() {
        long mib = 1 << 20;
        SoakMemory regions = new SoakMemory();
        SoakMemory shortPool = new SoakMemory();
        SoakMemory longPool = new SoakMemory();
        for (int i = 0; i <= 24; i++) {
            double minutes = i / 12.0; // 2 minutes, a sample every 5 s
            // One 2 MiB region of every second connection kept: 40 MiB a minute.
            regions.add(new SoakMemory.Sample(minutes, 10 * mib, (10 + (long) (40 * minutes)) * mib, 8 * mib,
                    500 * mib));
            shortPool.add(new SoakMemory.Sample(minutes, 10 * mib, 10 * mib, (8 + (long) (20 * minutes)) * mib,
                    (500 + (long) (20 * minutes)) * mib));
        }
        for (int i = 0; i <= 80; i++) {
            double minutes = i / 4.0; // 20 minutes
            longPool.add(new SoakMemory.Sample(minutes, 10 * mib, 10 * mib, (8 + (long) (20 * minutes)) * mib,
                    (500 + (long) (20 * minutes)) * mib));
        }
        assertThat(regions.slopes()).filteredOn(SoakMemory.Slope::growing).extracting(SoakMemory.Slope::name)
                .containsExactly("direct");
        assertThat(shortPool.slopes()).noneMatch(SoakMemory.Slope::growing);
        assertThat(shortPool.slopes().get(2).toString()).contains("pool +20.", "not judged under 10 min");
        assertThat(shortPool.slopes().get(3).toString()).contains("rss +20.", "not judged under 10 min");
        assertThat(longPool.slopes()).filteredOn(SoakMemory.Slope::growing).extracting(SoakMemory.Slope::name)
                .containsExactly("pool", "rss");
    }
}
