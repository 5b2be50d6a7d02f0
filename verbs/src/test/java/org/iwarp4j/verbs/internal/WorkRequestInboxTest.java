package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The hand-over queues are made by their first request, also when several threads post the first at once. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkRequestInboxTest {

    @Test
    void nothingIsPolledBeforeTheFirstPost() {
        WorkRequestInbox inbox = new WorkRequestInbox(1, 4, 4);
        assertThat(inbox.pollSend()).isNull();
        assertThat(inbox.pollReceive()).isNull();
        ReceiveWorkRequest r = new ReceiveWorkRequest(7, List.of());
        assertThat(inbox.offerReceive(r)).isTrue();
        assertThat(inbox.pollReceive()).isSameAs(r);
        assertThat(inbox.pollReceive()).isNull();
        assertThat(inbox.pollSend()).isNull();
    }

    @Test
    void firstPostsRacingOnManyThreadsAllArrive() throws Exception {
        int threads = 8;
        int each = 100;
        for (int round = 0; round < 50; round++) {
            WorkRequestInbox inbox = new WorkRequestInbox(1, 4, threads * each);
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> posters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * each;
                Thread p = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < each; i++) {
                        assertThat(inbox.offerReceive(new ReceiveWorkRequest(base + i, List.of()))).isTrue();
                    }
                });
                p.start();
                posters.add(p);
            }
            start.countDown();
            for (Thread p : posters) {
                p.join();
            }
            Set<Long> seen = new HashSet<>();
            ReceiveWorkRequest r;
            while ((r = inbox.pollReceive()) != null) {
                assertThat(seen.add(r.wrId())).isTrue();
            }
            assertThat(seen).as("round " + round).hasSize(threads * each);
            assertThat(inbox.receiveUsed()).isEqualTo(threads * each);
        }
    }
}
