package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.VerbsException;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

/**
 * The rule of every RNIC-wide limit: an acquisition that fits under the ceiling succeeds, one that does not is
 * refused and changes nothing, and what is released comes back — the count is always the sum of what is held.
 */
class ResourceLimitTest {

    @Test
    void theCountIsWhatIsHeldAndNeverExceedsTheCeiling() {
        // Each step: n > 0 acquires n, n <= 0 releases the oldest holding still held (if any).
        qt().withExamples(2000)
                .forAll(integers().between(0, 50), lists().of(integers().between(-10, 20)).ofSizeBetween(0, 60))
                .checkAssert((max, steps) -> {
                    ResourceLimit limit = new ResourceLimit("maxThings", max);
                    Deque<Integer> held = new ArrayDeque<>();
                    long sum = 0;
                    for (int n : steps) {
                        if (n > 0) {
                            boolean fits = sum + n <= max;
                            assertThat(limit.tryAcquire(n)).as("acquire %d with %d of %d held", n, sum, max)
                                    .isEqualTo(fits);
                            if (fits) {
                                held.add(n);
                                sum += n;
                            }
                        } else if (!held.isEmpty()) {
                            int r = held.poll();
                            limit.release(r);
                            sum -= r;
                        }
                        assertThat(limit.used()).isEqualTo(sum).isLessThanOrEqualTo(max);
                    }
                    while (!held.isEmpty()) {
                        limit.release(held.poll());
                    }
                    assertThat(limit.used()).as("everything released: nothing leaks").isZero();
                });
    }

    @Test
    void aRangeTakesAsMuchAsIsFreeOrNothingAndAReservationGivesBackWhatItHolds() {
        qt().withExamples(2000)
                .forAll(integers().between(0, 100), integers().between(0, 100), integers().between(0, 50),
                        integers().between(0, 50))
                .checkAssert((max, before, least, extra) -> {
                    ResourceLimit limit = new ResourceLimit("maxInboundReadsAndAtomics", max);
                    long taken = Math.min(before, max);
                    limit.acquire(taken, null, "before");
                    long free = max - taken;
                    long got = limit.tryAcquireBetween(least, least + extra);
                    if (free < least) {
                        assertThat(got).isEqualTo(-1);
                        assertThat(limit.used()).isEqualTo(taken);
                        return;
                    }
                    assertThat(got).isEqualTo(Math.min(least + extra, free));
                    Reservation r = new Reservation(limit, got);
                    r.trimTo(least);
                    r.trimTo(got); // never takes more
                    assertThat(limit.used()).isEqualTo(taken + Math.min(got, least));
                    r.release();
                    r.release();
                    assertThat(limit.used()).isEqualTo(taken);
                });
    }

    @Test
    void theRefusalNamesTheLimitItsValueAndWhatIsHeld() {
        ResourceLimit limit = new ResourceLimit("maxPostedReceives", 2);
        limit.acquire(2, null, "first");
        assertThatThrownBy(() -> limit.acquire(1, "wr", "posting a receive"))
                .isInstanceOfSatisfying(VerbsException.class, e -> {
                    assertThat(e.reason()).isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED);
                    assertThat(e.workRequest()).contains("wr");
                })
                .hasMessageContaining("posting a receive").hasMessageContaining("maxPostedReceives = 2")
                .hasMessageContaining("2 held");
        assertThat(limit.used()).isEqualTo(2);
        assertThat(limit.reached()).isEqualTo("maxPostedReceives = 2 reached");
    }

    @Test
    void releasingMoreThanIsHeldIsABugAndChangesNothing() {
        ResourceLimit limit = new ResourceLimit("maxThings", 5);
        limit.acquire(1, null, "one");
        assertThatThrownBy(() -> limit.release(2)).isInstanceOf(IllegalStateException.class);
        assertThat(limit.used()).isEqualTo(1);
    }

    @Test
    void racingAcquisitionsNeverTakeMoreThanTheCeiling() throws Exception {
        ResourceLimit limit = new ResourceLimit("maxThings", 1000);
        AtomicInteger granted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread th = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 1000; i++) {
                    if (limit.tryAcquire(1)) {
                        granted.incrementAndGet();
                    }
                }
            });
            th.start();
            threads.add(th);
        }
        start.countDown();
        for (Thread th : threads) {
            th.join();
        }
        assertThat(granted.get()).isEqualTo(1000);
        assertThat(limit.used()).isEqualTo(1000);
    }

    @Test
    void anAdmissionGivesEachSlotBackOnceWhicheverEndComesFirst() {
        ResourceLimit startups = new ResourceLimit("maxStartupsInProgress", 1);
        ResourceLimit connections = new ResourceLimit("maxConnections", 1);
        Admission first = Admission.tryAdmit(startups, connections);
        assertThat(first).isNotNull();
        assertThat(first.refusal()).isNull();
        assertThat(Admission.tryAdmit(startups, connections)).as("the second startup at once").isNull();
        first.startupEnded();
        first.startupEnded();
        assertThat(startups.used()).isZero();
        Admission second = Admission.tryAdmit(startups, connections);
        assertThat(second.refusal()).isEqualTo("iwarp4j: maxConnections = 1 reached");
        second.closed();
        second.closed();
        assertThat(connections.used()).as("a refused admission held no connection").isEqualTo(1);
        first.closed();
        assertThat(startups.used()).isZero();
        assertThat(connections.used()).isZero();
    }
}
