package org.iwarp4j.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The tools' waits: how long a peer had to answer is part of the one-line report. */
class StacksTest {

    @Test
    void aTimeoutSaysHowLongItWaited() {
        assertThatThrownBy(() -> Stacks.get(new CompletableFuture<>(), 1)).isInstanceOf(TimeoutException.class)
                .satisfies(e -> assertThat(Stacks.describe(e)).isEqualTo("no answer within 1 s"));
    }

    @Test
    void anAnswerAndAFailureAreTheFutures() throws Exception {
        assertThat(Stacks.get(CompletableFuture.completedFuture("done"), 1)).isEqualTo("done");
        assertThatThrownBy(() -> Stacks.get(CompletableFuture.failedFuture(new IllegalStateException("refused")), 1))
                .isInstanceOf(ExecutionException.class)
                .satisfies(e -> assertThat(Stacks.describe(e)).isEqualTo("refused"));
    }

    @Test
    void aTimeoutWithoutADurationIsStillDescribed() {
        assertThat(Stacks.describe(new TimeoutException())).isEqualTo("no answer in time");
    }
}
