package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.TerminateInfo;
import org.iwarp4j.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A completion queue's entries and an application's polled completions are filled again and again without being
 * cleared in between: whatever one completion carried (Immediate Data, an invalidated STag, SE, a Terminate, an
 * atomic's value) must not show in the next one that reuses the object.
 */
class CompletionQueueEntryTest {

    private static final WorkCompletionAccess WC = WorkCompletionAccess.get();
    private static final IntFunction<QueuePair> NO_QUEUE_PAIRS = n -> null;
    private static final TerminateInfo TERMINATE = new TerminateInfo(TerminateInfo.Direction.RECEIVED, 2, 1, 0x02,
            "no buffer", false, false, false, new byte[0], new byte[0]);

    /** Capacity 1 is a ring of 2: the third completion reuses the first one's entry. */
    private final CompletionQueueImpl cq = new CompletionQueueImpl(null, 1, null, q -> { });
    private final WorkCompletion[] polled = WorkCompletion.array(1);

    @Test
    void aReusedEntryAndAReusedPolledCompletionCarryNothingOfTheLastOne() {
        long first = cq.claim();
        WorkCompletion e = cq.entry(first);
        WC.set(e, 1, CompletionStatus.REMOTE_OPERATION_ERROR, CompletionOpcode.RECV_WITH_IMMEDIATE, 0, 7,
                NO_QUEUE_PAIRS, TERMINATE);
        WC.immediate(e, 0x1122334455667788L);
        WC.invalidated(e, 0x0abc);
        WC.solicited(e, true);
        WC.atomicOriginalValue(e, 99);
        cq.publish(first, true);
        assertThat(cq.poll(polled)).isEqualTo(1);
        WorkCompletion wc = polled[0];
        assertThat(wc.status()).isEqualTo(CompletionStatus.REMOTE_OPERATION_ERROR);
        assertThat(wc.opcode()).isEqualTo(CompletionOpcode.RECV_WITH_IMMEDIATE);
        assertThat(wc.immediateData()).hasValue(0x1122334455667788L);
        assertThat(wc.invalidatedStag()).contains(new Stag(0x0abc));
        assertThat(wc.solicited()).isTrue();
        assertThat(wc.terminate()).containsSame(TERMINATE);

        fillPlain(2, CompletionOpcode.SEND); // the ring's other entry
        assertThat(cq.poll(polled)).isEqualTo(1);
        fillPlain(3, CompletionOpcode.ATOMIC_FETCH_ADD); // the first one's entry again
        assertThat(cq.poll(polled)).isEqualTo(1);

        assertThat(wc.wrId()).isEqualTo(3);
        assertThat(wc.isSuccess()).isTrue();
        assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
        assertThat(wc.byteLength()).isEqualTo(64);
        assertThat(wc.queuePairNumber()).isEqualTo(9);
        assertThat(wc.immediateData()).isEqualTo(OptionalLong.empty());
        assertThat(wc.invalidatedStag()).isEqualTo(Optional.empty());
        assertThat(wc.solicited()).isFalse();
        assertThat(wc.terminate()).isEmpty();
        assertThat(wc.atomicOriginalValue()).hasValue(0); // not the 99 the entry held before
    }

    @Test
    void aCompletionNeverFilledHasNoStatusOrOpcode() {
        WorkCompletion wc = new WorkCompletion();
        assertThat(wc.status()).isNull();
        assertThat(wc.opcode()).isNull();
        assertThat(wc.isSuccess()).isFalse();
        assertThat(wc.copy().status()).isNull();
    }

    @Test
    void everyStatusAndOpcodeSurvivesTheRingAndACopy() {
        long wrId = 0;
        for (CompletionStatus s : CompletionStatus.values()) {
            for (CompletionOpcode o : CompletionOpcode.values()) {
                long seq = cq.claim();
                WC.set(cq.entry(seq), ++wrId, s, o, 1, 1, NO_QUEUE_PAIRS, null);
                cq.publish(seq, false);
                assertThat(cq.poll(polled)).isEqualTo(1);
                WorkCompletion copy = polled[0].copy();
                assertThat(copy.wrId()).isEqualTo(wrId);
                assertThat(copy.status()).isEqualTo(s);
                assertThat(copy.opcode()).isEqualTo(o);
                assertThat(copy.isSuccess()).isEqualTo(s == CompletionStatus.SUCCESS);
            }
        }
    }

    private void fillPlain(long wrId, CompletionOpcode opcode) {
        long seq = cq.claim();
        WC.set(cq.entry(seq), wrId, CompletionStatus.SUCCESS, opcode, 64, 9, NO_QUEUE_PAIRS, null);
        cq.publish(seq, false);
    }
}
