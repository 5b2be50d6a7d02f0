package org.iwarp4j.verbs.internal;

import io.netty.channel.EventLoop;
import org.iwarp4j.verbs.AsyncEvent;
import org.iwarp4j.verbs.AsyncEventListener;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.PreparedSend;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairAttributes;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.QueuePairState;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.Connection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The thread-safe face of a queue pair. Posting validates on the caller's thread, hands the request over
 * ({@link WorkRequestInbox}: one CAS, an MPSC queue) and wakes the event loop only when the wake-up flag was
 * clear (one atomic flag): lock-free, and nothing allocated beyond the request itself. Everything else
 * happens on the loop in {@link QueuePairEngine}. The application's code running on the queue pair's own loop (run
 * to completion: a completion handler, an executor task) skips the hand-over: its requests go to the engine at
 * once ({@link #directEngine}), after any that other threads handed over before.
 *
 * <p>Before the queue pair is bound to a connection's loop, requests wait in the queue (receives may be
 * posted in IDLE); binding drains them.
 */
final class QueuePairImpl implements QueuePair {

    private static final Logger LOG = LoggerFactory.getLogger(QueuePairImpl.class);
    /** Receives a queue pair on a shared receive queue holds at once (taken on demand, one per message). */
    private static final int SHARED_RECEIVE_WINDOW = 16;

    private final RnicImpl rnic;
    private final ProtectionDomainImpl pd;
    private final QueuePairConfig config;
    private final int number;
    private final CompletionQueueImpl sendCq;
    private final CompletionQueueImpl receiveCq;
    private final SharedReceiveQueueImpl shared;
    private final SendPostBuilder builder;

    private final WorkRequestInbox inbox;
    private final AtomicBoolean wakeup = new AtomicBoolean();
    private final Runnable drainTask = this::drain;
    private final AtomicBoolean claimed = new AtomicBoolean();
    /**
     * This queue pair's share of the RNIC's {@code maxPostedReceives}: its receives posted and not yet polled. Given
     * back one by one as their slots are, and all at once when the queue pair closes (its flushed completions may
     * never be polled).
     */
    private final AtomicInteger receivesCounted = new AtomicInteger();
    private volatile boolean receivesRetired;

    private volatile EventLoop loop;
    /** A post is going to the engine at once ({@link #directEngine}); on the loop only. */
    private boolean postingDirect;
    private volatile QueuePairEngine engine;
    private volatile QueuePairState state = QueuePairState.IDLE;
    private volatile AsyncEventListener asyncListener;
    private volatile ConnectionImpl connection;
    private volatile ConnectionControl control;
    private volatile boolean closed;
    /** Prepared sends not closed yet: {@link #close} closes them (each holds references on its regions). */
    private final Set<PreparedSendImpl> prepared = ConcurrentHashMap.newKeySet();
    /** The IRD this queue pair's connection took from the RNIC's maxInboundReadsAndAtomics. */
    private volatile Reservation irdReservation;

    QueuePairImpl(RnicImpl rnic, ProtectionDomainImpl pd, QueuePairConfig config, int number) {
        this.rnic = rnic;
        this.pd = pd;
        this.config = config;
        this.number = number;
        this.sendCq = (CompletionQueueImpl) config.sendCompletionQueue();
        this.receiveCq = (CompletionQueueImpl) config.receiveCompletionQueue();
        this.shared = (SharedReceiveQueueImpl) config.sharedReceiveQueue().orElse(null);
        this.builder = new SendPostBuilder(this);
        this.inbox = new WorkRequestInbox(number, config.maxSendWr(), config.maxRecvWr());
        sendCq.attach(this);
        receiveCq.attach(this);
    }

    // ------------------------------------------------------------------ accessors

    RnicImpl rnic() {
        return rnic;
    }

    ProtectionDomainImpl pd() {
        return pd;
    }

    CompletionQueueImpl sendCq() {
        return sendCq;
    }

    CompletionQueueImpl receiveCq() {
        return receiveCq;
    }

    SharedReceiveQueueImpl shared() {
        return shared;
    }

    int receiveDepth() {
        return shared != null ? SHARED_RECEIVE_WINDOW : config.maxRecvWr();
    }

    @Override
    public int number() {
        return number;
    }

    @Override
    public QueuePairState state() {
        return state;
    }

    void state(QueuePairState s) {
        if (state != QueuePairState.ERROR) {
            state = s;
        }
    }

    void stateError() {
        state = QueuePairState.ERROR;
    }

    @Override
    public QueuePairConfig config() {
        return config;
    }

    @Override
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    @Override
    public Optional<Connection> connection() {
        return Optional.ofNullable(connection);
    }

    void connection(ConnectionImpl c) {
        this.connection = c;
    }

    @Override
    public int sendQueueAvailable() {
        return config.maxSendWr() - inbox.sendUsed();
    }

    @Override
    public QueuePairAttributes query() {
        ConnectionImpl c = connection;
        int ird = c != null ? c.parameters().ird() : config.ird();
        int ord = c != null ? c.parameters().ord() : config.ord();
        return new QueuePairAttributes(number, state, config.maxSendWr(), config.maxRecvWr(), config.maxSge(),
                config.maxInlineData(), ird, ord, config.signalAll(), config.rfc7306(), inbox.sendUsed(),
                shared != null ? 0 : inbox.receiveUsed(), c != null && c.sendsHeld());
    }

    // ------------------------------------------------------------------ posting

    @Override
    public void postSend(SendWorkRequest request) {
        if (!tryPostSend(request)) {
            throw queueFull(request);
        }
    }

    @Override
    public boolean tryPostSend(SendWorkRequest request) {
        Objects.requireNonNull(request, "request");
        checkSendState(request);
        return sendRoomFor(request) && tryEnqueue(builder.build(request, false));
    }

    @Override
    public CompletableFuture<WorkCompletion> postSendAsync(SendWorkRequest request) {
        Objects.requireNonNull(request, "request");
        checkSendState(request);
        if (!sendRoomFor(request)) {
            throw queueFull(request);
        }
        SendPost post = builder.build(request, false);
        LoopSafeFuture<WorkCompletion> future = new LoopSafeFuture<>();
        post.future = future;
        if (!tryEnqueue(post)) {
            throw queueFull(request);
        }
        return future;
    }

    @Override
    public void postSend(List<SendWorkRequest> requests) {
        Objects.requireNonNull(requests, "requests");
        try {
            for (SendWorkRequest request : requests) {
                Objects.requireNonNull(request, "request");
                checkSendState(request);
                if (!inbox.offerSend(builder.build(request, false))) {
                    throw queueFull(request);
                }
            }
        } finally {
            wake(); // one drain for the whole chain: its requests reach RDMAP in one pump
        }
    }

    VerbsException queueFull(SendWorkRequest request) {
        return inbox.sendQueueFull(request);
    }

    /** Whether the send queue has room for {@code request} now: checked before anything is built or retained. */
    boolean sendRoomFor(SendWorkRequest request) {
        return inbox.sendRoomFor(SendPost.slotsOf(request));
    }

    @Override
    public PreparedSend prepare(SendWorkRequest request) {
        Objects.requireNonNull(request, "request");
        PreparedSendImpl p = new PreparedSendImpl(this, request, builder.build(request, true));
        prepared.add(p);
        if (closed) {
            p.close(); // closed meanwhile: close() may have looked at the set before the add
        }
        return p;
    }

    /** A prepared send let its memory go: the queue pair need not close it. */
    void preparedClosed(PreparedSendImpl p) {
        prepared.remove(p);
    }

    /**
     * Sends need a connection: RTS, or a stream that has since failed. As with a libibverbs queue pair in the
     * error state, a request posted in TERMINATE, CLOSING or ERROR is accepted and completes with the flush
     * status that names the cause (the Terminate sent or received, the disconnect); the application learns
     * of the failure from its completion queue, never from a race between its post and the peer's Terminate.
     */
    void checkSendState(SendWorkRequest request) {
        QueuePairState s = state;
        boolean connected = s == QueuePairState.RTS || (s != QueuePairState.IDLE && engine != null);
        if (!connected || closed) {
            throw new VerbsException(VerbsException.Reason.WRONG_STATE, request, "queue pair " + number + " is " + s
                    + (closed ? " (closed)" : "") + "; sends need a connection (RTS)");
        }
    }

    /**
     * Hands a built post over and wakes the loop; false (its data released) when the send queue is full. Posted by
     * the application's code on the loop ({@link #directEngine}) with nothing waiting before it, the post goes to
     * the engine at once: no hand-over queue, no wake-up, no task.
     */
    boolean tryEnqueue(SendPost post) {
        QueuePairEngine e = directEngine();
        if (e != null && !inbox.sendsWaiting() && e.takesSendsNow()) {
            if (!inbox.takeSendSlots(post)) {
                return false;
            }
            postingDirect = true;
            try {
                e.submit(post);
            } finally {
                postingDirect = false;
            }
            return true;
        }
        if (!inbox.offerSend(post)) {
            return false;
        }
        wake();
        return true;
    }

    /**
     * The engine, when a post may go to it at once: on this queue pair's loop, while the loop runs the application's
     * code at the top of a task (a completion handler or an executor task of one of its completion queues on this
     * loop, {@link CompletionQueueImpl#runningApplicationCode}) and not a post already going there (whose work may
     * call the application back: a future's callback). Anything else (another thread, the stack's own callbacks)
     * hands the request over, as before. Null when not.
     */
    private QueuePairEngine directEngine() {
        QueuePairEngine e = engine;
        EventLoop l = loop;
        if (e == null || l == null || !l.inEventLoop() || postingDirect) {
            return null;
        }
        boolean application = (sendCq.loop() == l && sendCq.runningApplicationCode())
                || (receiveCq.loop() == l && receiveCq.runningApplicationCode());
        return application ? e : null;
    }

    @Override
    public void postReceive(ReceiveWorkRequest request) {
        if (!tryPostReceive(request)) {
            throw inbox.receiveQueueFull(request);
        }
    }

    @Override
    public boolean tryPostReceive(ReceiveWorkRequest request) {
        Objects.requireNonNull(request, "request");
        if (shared != null) {
            throw new VerbsException(VerbsException.Reason.WRONG_STATE, request,
                    "queue pair " + number + " takes its receives from a shared receive queue");
        }
        if (closed || (state == QueuePairState.ERROR && engine == null)) {
            throw new VerbsException(VerbsException.Reason.WRONG_STATE, request, "queue pair " + number + " is "
                    + (closed ? "closed" : state));
        }
        SendPostBuilder.checkReceive(pd, request, config.maxSge());
        ResourceLimit limit = rnic.postedReceives();
        if (!limit.tryAcquire(1)) {
            throw limit.refusal(request, "posting a receive to queue pair " + number);
        }
        receivesCounted.incrementAndGet();
        QueuePairEngine e = directEngine();
        if (e != null && !inbox.receivesWaiting()) {
            // the application's code on the loop, nothing waiting before it: RDMAP takes the receive at once
            if (!inbox.takeReceiveSlot()) {
                uncountReceive();
                return false;
            }
            postingDirect = true;
            try {
                e.postReceive(request);
            } finally {
                postingDirect = false;
            }
            if (receivesRetired) {
                retireReceives();
            }
            return true;
        }
        if (!inbox.offerReceive(request)) {
            uncountReceive();
            return false;
        }
        if (receivesRetired) {
            retireReceives(); // closed meanwhile: this one's flush may never be polled either
        }
        wake();
        return true;
    }

    /** One counted receive is done (its slot given back): the RNIC's count goes down, unless closing did that. */
    private void uncountReceive() {
        while (true) {
            int c = receivesCounted.get();
            if (c == 0) {
                return;
            }
            if (receivesCounted.compareAndSet(c, c - 1)) {
                rnic.postedReceives().release(1);
                return;
            }
        }
    }

    /** Closed: every receive still counted goes back to the RNIC now. */
    private void retireReceives() {
        receivesRetired = true;
        int n = receivesCounted.getAndSet(0);
        if (n > 0) {
            rnic.postedReceives().release(n);
        }
    }

    void releaseSendSlots(int n) {
        inbox.releaseSendSlots(n);
    }

    void releaseReceiveSlot() {
        inbox.releaseReceiveSlot();
        uncountReceive();
    }

    SendPost pollSend() {
        return inbox.pollSend();
    }

    ReceiveWorkRequest pollReceive() {
        return inbox.pollReceive();
    }

    /** Wakes the loop if the flag was clear; before binding, the flag stays set and binding drains. */
    private void wake() {
        if (wakeup.compareAndSet(false, true)) {
            EventLoop l = loop;
            if (l != null) {
                l.execute(drainTask);
            }
        }
    }

    /** On the loop: a fenced local operation was released; continue draining. */
    void requestDrain() {
        EventLoop l = loop;
        if (l != null) {
            l.execute(drainTask);
        }
    }

    private void drain() {
        QueuePairEngine e = engine;
        if (e == null) {
            return; // not connected yet: the flag stays set, start() drains
        }
        wakeup.set(false);
        e.drainInbox();
    }

    // ------------------------------------------------------------------ connection life

    /** Claims the queue pair for one connect/accept; false if it is not IDLE or already claimed. */
    boolean claim() {
        return !closed && state == QueuePairState.IDLE && claimed.compareAndSet(false, true);
    }

    void irdReservation(Reservation r) {
        this.irdReservation = r;
    }

    Reservation irdReservation() {
        return irdReservation;
    }

    void bind(EventLoop eventLoop, ConnectionControl c) {
        this.control = c;
        this.loop = eventLoop;
        eventLoop.execute(drainTask);
    }

    /** On the loop, at Full Operation: the engine exists, waiting requests go to RDMAP now. */
    void start(QueuePairEngine e) {
        this.engine = e;
        drain();
    }

    /**
     * The connection never reached Full Operation: receives posted while IDLE complete as flushed (there
     * never was a stream to post them to). On the loop.
     */
    synchronized void flushUnstarted() {
        if (engine != null) {
            return;
        }
        Completions c = new Completions(this, null, () -> false);
        ReceiveWorkRequest r;
        while ((r = inbox.pollReceive()) != null) {
            c.receive(r.wrId(), CompletionStatus.WORK_REQUEST_FLUSHED, null, 0, 0, 0); // its slot: when polled
        }
    }

    void fireAsync(AsyncEvent event) {
        AsyncEventListener l = asyncListener;
        LOG.debug("queue pair {}: {}", number, event);
        if (l != null) {
            try {
                l.onAsyncEvent(event);
            } catch (RuntimeException ex) {
                LOG.warn("async event listener failed", ex);
            }
        }
    }

    @Override
    public void onAsyncEvent(AsyncEventListener listener) {
        this.asyncListener = listener;
    }

    void completionQueueOverflowed() {
        ConnectionControl c = control;
        if (c != null) {
            c.completionQueueOverflowed();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ConnectionControl c = control;
        if (c != null) {
            c.abort();
        } else {
            state = QueuePairState.ERROR;
            flushUnstarted(); // never connected: the receives posted while IDLE complete, flushed
        }
        retireReceives();
        // what the application prepared and did not close holds references on its regions' memory
        for (PreparedSendImpl p : List.copyOf(prepared)) {
            p.close();
        }
        sendCq.detach(this);
        receiveCq.detach(this);
        rnic.queuePairClosed(this);
        pd.queuePairClosed();
    }

    @Override
    public String toString() {
        return "QueuePair[" + number + " " + state + "]";
    }
}
