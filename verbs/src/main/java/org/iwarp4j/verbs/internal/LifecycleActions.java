package org.iwarp4j.verbs.internal;

import org.iwarp4j.rdmap.terminate.TerminateCause;

import java.time.Duration;

/**
 * What {@link ConnectionLifecycle} decides, carried out on the channel by {@link ChannelActions}. An action may
 * call back into the lifecycle (an aborted stream reports {@code rdmapFailed}); it has updated its state before
 * any action goes out. What follows an action later comes back through the {@code Runnable} it was given.
 */
interface LifecycleActions {

    /** Responder: tell the application of the MPA Request (CM CONNECT_REQUEST). */
    void connectRequest();

    /** Responder: the application did not decide in time; reject the Request (no private data). */
    void rejectUnanswered();

    /** Full Operation: the queue pair in RTS, CM ESTABLISHED, the established future completes. */
    void established();

    /** The connection will not be established (CM CONNECT_ERROR, UNREACHABLE or REJECTED). */
    void setupFailed(SetupFailure failure);

    /** Fail the RDMAP stream with a Terminate of this cause and no copied header (RFC 5040 §7.1). */
    void abortStream(TerminateCause cause, String detail);

    /** Tell the application its completion queue overflowed (async event). */
    void reportCompletionQueueOverflow();

    /** RDMA Read and Atomic Requests of ours awaiting their response (0 before the stream exists). */
    int outstandingResponses();

    /** The peer went silent while it owed a response: tell the application (async event), in one log line. */
    void reportResponseTimeout(String detail);

    /** interop/FINDINGS.md M15: queue one zero-length RDMA Write (see {@link PeerAccommodations#firstFpduNudge()}). */
    void sendNudge();

    /** Run the transmit pump now. */
    void pump();

    /** The queue pair enters CLOSING (a graceful disconnect started). */
    void queuePairClosing();

    /** Write and flush what MPA took; then run {@code written} (also if that failed). */
    void flushGracefully(Runnable written);

    /** The queue pair enters ERROR; outstanding work is flushed with {@code ending}, the stream closed. */
    void endStream(Completions.Ending ending);

    /** Once the batch carrying our Terminate is written (or failed), run {@code written}. */
    void afterTerminateFlushed(Runnable written);

    /** Shut TCP's output down (FIN), keep reading; close if that is not possible. */
    void halfClose();

    /** Close TCP (FIN). */
    void close();

    /** Close TCP once what was written (the MPA Reply) is flushed. */
    void flushAndClose();

    /** Close TCP abortively: RST (SO_LINGER 0). */
    void reset();

    /**
     * Run {@code fired} after {@code delay}, unless cancelled. Once the channel is going, DISCONNECT and
     * FIRST_FPDU_NUDGE have nothing left to do and are not run (the end of the channel follows).
     */
    void schedule(ConnectionTimer timer, Duration delay, Runnable fired);

    void cancel(ConnectionTimer timer);

    /** The channel is gone: carry out {@code teardown}, then the disconnected future completes. */
    void closed(Teardown teardown);

    /**
     * What the end of the channel means.
     *
     * @param ending           how work still outstanding is flushed
     * @param reportLlpError   RFC 5044 §8 code 0x01 (MPA-43, DDP-33): the stream was running when TCP went away,
     *                         so RDMAP and the application hear the LLP error 0x2/0x0/0x01
     * @param setupFailure     the connection was never established: why, or {@code null}
     * @param fireDisconnected it was established: CM DISCONNECTED and TIMEWAIT_EXIT
     * @param end              why it ended
     */
    record Teardown(Completions.Ending ending, boolean reportLlpError, SetupFailure setupFailure,
                    boolean fireDisconnected, ConnectionEnd end) {
    }
}
