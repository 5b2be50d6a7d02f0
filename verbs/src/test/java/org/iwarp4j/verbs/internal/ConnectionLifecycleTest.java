package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.internal.ConnectionEnd.Reason;
import org.iwarp4j.verbs.internal.ConnectionLifecycle.Role;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.verbs.internal.LifecycleDriver.Event.*;

/** Whole lives of a connection through {@link ConnectionLifecycle}: the actions in order and why it ended. */
class ConnectionLifecycleTest {

    @Test
    void aGracefulDisconnectFinishesTheMessageThenFlushesThenCloses() {
        LifecycleDriver d = LifecycleDriver.initiator().then(FULL_OPERATION).clear();
        d.then(LOCAL_DISCONNECT);
        assertThat(d.lifecycle.finishingMessageOnly()).as("siw-interop §G").isTrue();
        d.then(GRACEFUL_DRAIN_FINISHED).then(GRACEFUL_FLUSH_WRITTEN).then(CHANNEL_INACTIVE);
        assertThat(d.log).containsExactly("queuePairClosing", "schedule(DISCONNECT)", "pump", "flushGracefully",
                "endStream(DISCONNECT)", "close", "cancel(DISCONNECT)",
                "closed(DISCONNECT,llp=false,setup=-,disconnected=true,end=LOCAL_DISCONNECT)");
        assertThat(d.delays).containsEntry(ConnectionTimer.DISCONNECT, LifecycleDriver.DISCONNECT);
    }

    @Test
    void aDisconnectThatDoesNotFinishInTimeTurnsAbortive() {
        LifecycleDriver d = LifecycleDriver.initiator().then(FULL_OPERATION).then(LOCAL_DISCONNECT).clear();
        d.then(DISCONNECT_FIRED).then(GRACEFUL_DRAIN_FINISHED).then(CHANNEL_INACTIVE);
        assertThat(d.log).containsExactly("endStream(DISCONNECT)", "reset",
                "closed(DISCONNECT,llp=false,setup=-,disconnected=true,end=DISCONNECT_TIMEOUT)");
    }

    /** FINDINGS O1: FIN after our Terminate, then the peer has the linger (at most the disconnect timeout). */
    @Test
    void ourTerminateIsFollowedByAHalfCloseAndALinger() {
        LifecycleDriver d = new LifecycleDriver(Role.INITIATOR, Duration.ZERO, Duration.ofMillis(300))
                .then(FULL_OPERATION).then(RDMAP_FAILED).clear();
        d.then(TERMINATE_SENT).then(TERMINATE_WRITTEN).then(TERMINATE_LINGER_FIRED).then(CHANNEL_INACTIVE);
        assertThat(d.log).containsExactly("afterTerminateFlushed", "halfClose", "schedule(TERMINATE_LINGER)", "close",
                "closed(DISCONNECT,llp=false,setup=-,disconnected=true,end=TERMINATE_SENT)");
        assertThat(d.delays).containsEntry(ConnectionTimer.TERMINATE_LINGER, Duration.ofMillis(300));
        assertThat(d.teardowns.get(0).end().terminate()).isEqualTo(LifecycleDriver.OURS);
        LifecycleDriver longer = LifecycleDriver.initiator().then(FULL_OPERATION).then(RDMAP_FAILED)
                .then(TERMINATE_SENT).then(TERMINATE_WRITTEN);
        assertThat(longer.delays).containsEntry(ConnectionTimer.TERMINATE_LINGER,
                ConnectionLifecycle.LINGER_AFTER_TERMINATE);
    }

    @Test
    void thePeersTerminateClosesAndIsWhyItEnded() {
        LifecycleDriver d = LifecycleDriver.initiator().then(FULL_OPERATION).then(TERMINATE_RECEIVED)
                .then(CHANNEL_INACTIVE);
        assertThat(d.teardowns.get(0).end()).isEqualTo(new ConnectionEnd(Reason.TERMINATE_RECEIVED,
                LifecycleDriver.THEIRS));
    }

    /** RFC 5044 §8 code 0x01: a FIN or RST of a running stream is the LLP error; a failure also flushes so. */
    @Test
    void howTheTransportWentDecidesTheEndingAndTheReason() {
        LifecycleDriver fin = LifecycleDriver.initiator().then(FULL_OPERATION).then(CHANNEL_INACTIVE);
        assertThat(fin.log).last().isEqualTo("closed(DISCONNECT,llp=true,setup=-,disconnected=true,end=PEER_CLOSED)");
        LifecycleDriver rst = LifecycleDriver.initiator().then(FULL_OPERATION).then(PEER_RESET).then(CHANNEL_INACTIVE);
        assertThat(rst.log).last().isEqualTo("closed(DISCONNECT,llp=true,setup=-,disconnected=true,end=PEER_RESET)");
        LifecycleDriver failed = LifecycleDriver.initiator().then(FULL_OPERATION).then(TRANSPORT_ERROR)
                .then(CHANNEL_INACTIVE);
        assertThat(failed.log).last()
                .isEqualTo("closed(TRANSPORT,llp=true,setup=-,disconnected=true,end=TRANSPORT_ERROR)");
        LifecycleDriver inside = LifecycleDriver.initiator().then(FULL_OPERATION).then(PEER_CLOSED_INSIDE_FPDU)
                .then(CHANNEL_INACTIVE);
        assertThat(inside.log).last()
                .isEqualTo("closed(DISCONNECT,llp=true,setup=-,disconnected=true,end=PEER_CLOSED_INSIDE_FPDU)");
        // As the handler's flag was, a failure after a reset (e.g. a write failing on the closed channel) still
        // flushes as a transport error, though the reset is why the connection ended.
        LifecycleDriver both = LifecycleDriver.initiator().then(FULL_OPERATION).then(PEER_RESET).then(TRANSPORT_ERROR)
                .then(CHANNEL_INACTIVE);
        assertThat(both.log).last().isEqualTo("closed(TRANSPORT,llp=true,setup=-,disconnected=true,end=PEER_RESET)");
        LifecycleDriver ours = LifecycleDriver.initiator().then(FULL_OPERATION).then(LOCAL_DISCONNECT)
                .then(TRANSPORT_ERROR).then(CHANNEL_INACTIVE);
        assertThat(ours.log).last().as("not while we were closing")
                .isEqualTo("closed(DISCONNECT,llp=false,setup=-,disconnected=true,end=LOCAL_DISCONNECT)");
    }

    /** FINDINGS M15: armed once, at the first FPDUs, only while the peer is silent and the stream runs. */
    @Test
    void theNudgeIsForASilentPeerOnly() {
        LifecycleDriver d = LifecycleDriver.initiator().then(FULL_OPERATION_RTR_FIRST).clear();
        d.then(FPDUS_FLUSHED).then(FPDUS_FLUSHED).then(NUDGE_FIRED).then(FPDUS_FLUSHED);
        assertThat(d.log).containsExactly("schedule(FIRST_FPDU_NUDGE)", "sendNudge");
        assertThat(d.delays).containsEntry(ConnectionTimer.FIRST_FPDU_NUDGE, Duration.ofMillis(100));
        LifecycleDriver spoke = LifecycleDriver.initiator().then(FULL_OPERATION).then(FPDU_RECEIVED).clear();
        assertThat(spoke.then(FPDUS_FLUSHED).log).isEmpty();
        LifecycleDriver off = new LifecycleDriver(Role.INITIATOR, Duration.ZERO, LifecycleDriver.DISCONNECT)
                .then(FULL_OPERATION).clear();
        assertThat(off.then(FPDUS_FLUSHED).log).isEmpty();
        LifecycleDriver failed = LifecycleDriver.initiator().then(FULL_OPERATION).then(FPDUS_FLUSHED)
                .then(RDMAP_FAILED).clear();
        assertThat(failed.then(NUDGE_FIRED).log).as("not once the stream failed").isEmpty();
    }

    /** The Responder rejects an undecided Request at 4/5 of the MPA startup timeout (siw reports REJECTED). */
    @Test
    void anUndecidedRequestIsRejectedBeforeTheStartupTimeout() {
        LifecycleDriver d = LifecycleDriver.responder().then(CONNECT_REQUEST);
        assertThat(d.delays).containsEntry(ConnectionTimer.MPA_DECISION, Duration.ofSeconds(8));
        d.clear().then(MPA_DECISION_FIRED).then(REQUEST_REJECTED).then(CHANNEL_INACTIVE);
        assertThat(d.log).containsExactly("rejectUnanswered",
                "closed(DISCONNECT,llp=false,setup=-,disconnected=false,end=SETUP_FAILED)");
    }

    /** An abort during MPA startup: MPA then reports its own failure, which fails the connect. */
    @Test
    void anAbortDuringStartupLeavesTheFailureToMpa() {
        LifecycleDriver d = LifecycleDriver.initiator().then(LOCAL_ABORT).then(STARTUP_FAILED).then(CHANNEL_INACTIVE);
        assertThat(d.log).containsExactly("endStream(DISCONNECT)", "reset", "setupFailed(STARTUP_TIMEOUT)", "close",
                "closed(DISCONNECT,llp=false,setup=-,disconnected=false,end=SETUP_FAILED)");
    }

    /** RFC 6581 §9.3 (MPA-76): an error before the RTR went out fails the connect with the Terminate sent. */
    @Test
    void aTerminateBeforeTheRtrFailsTheConnect() {
        LifecycleDriver d = LifecycleDriver.initiator().then(FULL_OPERATION_RTR_FIRST).clear()
                .then(STREAM_ERROR).then(TERMINATE_SENT).then(RTR_SENT).then(TERMINATE_WRITTEN).then(CHANNEL_INACTIVE);
        assertThat(d.log).containsExactly("abortStream(MPA_CRC_ERROR)", "pump", "afterTerminateFlushed",
                "setupFailed(TERMINATE_SENT)", "halfClose", "schedule(TERMINATE_LINGER)", "cancel(TERMINATE_LINGER)",
                "closed(DISCONNECT,llp=false,setup=-,disconnected=false,end=SETUP_FAILED)");
        assertThat(d.setupFailures.get(0).detail()).isEqualTo(LifecycleDriver.OURS.describe());
        assertThat(d.teardowns.get(0).end().terminate()).isEqualTo(LifecycleDriver.OURS);
    }

    /** The graceful flush completes the disconnect even after the peer's Terminate closed the channel. */
    @Test
    void theGracefulFlushEndsTheStreamWhateverCameMeanwhile() {
        LifecycleDriver d = LifecycleDriver.initiator().then(FULL_OPERATION).then(LOCAL_DISCONNECT)
                .then(GRACEFUL_DRAIN_FINISHED).clear();
        d.then(TERMINATE_RECEIVED).then(GRACEFUL_FLUSH_WRITTEN).then(CHANNEL_INACTIVE);
        assertThat(d.log).containsExactly("close", "endStream(DISCONNECT)", "close", "cancel(DISCONNECT)",
                "closed(DISCONNECT,llp=false,setup=-,disconnected=true,end=LOCAL_DISCONNECT)");
    }
}
