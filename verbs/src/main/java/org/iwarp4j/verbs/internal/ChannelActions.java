package org.iwarp4j.verbs.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.ScheduledFuture;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.rdmap.stream.RdmapStreamState;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.verbs.AsyncEvent;
import org.iwarp4j.verbs.QueuePairState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@link ConnectionLifecycle}'s decisions carried out on one connection's channel, queue pair and stream; the CM
 * events go to {@link CmEvents}. Owned by {@link QueuePairHandler}, which hands it the parts of the connection
 * as they come into being. On the connection's event loop.
 */
final class ChannelActions implements LifecycleActions {

    private static final Logger LOG = LoggerFactory.getLogger(ChannelActions.class);

    private final CmEvents cm;
    private final PeerAccommodations peer;
    private final EnumMap<ConnectionTimer, ScheduledFuture<?>> timers = new EnumMap<>(ConnectionTimer.class);
    private ChannelHandlerContext ctx;
    private QueuePairImpl qp;
    private ConnectionRequestImpl request;
    private QueuePairEngine engine;
    private TransmitPump pump;

    ChannelActions(CmEvents cm, PeerAccommodations peer, QueuePairImpl qp) {
        this.cm = cm;
        this.peer = peer;
        this.qp = qp;
    }

    void attach(ChannelHandlerContext context) {
        this.ctx = context;
    }

    /** Responder: the application's connection request, and later the queue pair that accepted it. */
    void request(ConnectionRequestImpl r) {
        this.request = r;
    }

    void bind(QueuePairImpl acceptedQp) {
        this.qp = acceptedQp;
    }

    void streamOpened(QueuePairEngine e, TransmitPump p) {
        this.engine = e;
        this.pump = p;
    }

    @Override
    public void connectRequest() {
        cm.connectRequest(request);
    }

    @Override
    public void rejectUnanswered() {
        request.rejectUnanswered();
    }

    @Override
    public void established() {
        cm.established();
    }

    @Override
    public void setupFailed(SetupFailure failure) {
        cm.setupFailed(failure);
    }

    @Override
    public void abortStream(TerminateCause cause, String detail) {
        if (engine != null) {
            engine.stream().abort(cause, detail);
        }
    }

    @Override
    public void reportCompletionQueueOverflow() {
        qp.fireAsync(new AsyncEvent(AsyncEvent.Type.COMPLETION_QUEUE_OVERFLOW, qp, Optional.empty(),
                "a completion queue of this queue pair overflowed"));
    }

    @Override
    public int outstandingResponses() {
        return engine == null ? 0 : engine.stream().outstandingRequests();
    }

    @Override
    public void reportResponseTimeout(String detail) {
        LOG.warn("{}: {}", ctx.channel(), detail);
        if (qp != null) {
            qp.fireAsync(new AsyncEvent(AsyncEvent.Type.RESPONSE_TIMEOUT, qp, Optional.empty(), detail));
        }
    }

    @Override
    public void sendNudge() {
        if (engine.stream().sendZeroLengthWrite()) {
            LOG.info("{}: nothing arrived within {} ms of our first FPDU: sent a zero-length RDMA Write (first-FPDU"
                    + " nudge; Linux siw accept race, interop/FINDINGS.md M15)", ctx.channel(),
                    peer.firstFpduNudge().toMillis());
            pump.pump();
        }
    }

    @Override
    public void pump() {
        if (pump != null) {
            pump.pump();
        }
    }

    @Override
    public void queuePairClosing() {
        if (qp != null) {
            qp.state(QueuePairState.CLOSING);
        }
    }

    @Override
    public void flushGracefully(Runnable written) {
        ChannelFuture f = pump != null ? pump.flushAll() : ctx.writeAndFlush(Unpooled.EMPTY_BUFFER);
        f.addListener(x -> written.run());
    }

    @Override
    public void endStream(Completions.Ending ending) {
        if (qp != null) {
            qp.stateError();
        }
        if (engine != null) {
            engine.completions().ending(ending);
            engine.stream().close();
        }
    }

    @Override
    public void afterTerminateFlushed(Runnable written) {
        pump.afterNextFlush(written);
    }

    @Override
    public void halfClose() {
        if (!(ctx.channel() instanceof DuplexChannel d) || !d.isActive() || d.isOutputShutdown()) {
            ctx.close();
            return;
        }
        d.shutdownOutput().addListener(f -> {
            if (!f.isSuccess()) {
                ctx.close();
            }
        });
    }

    @Override
    public void close() {
        ctx.close();
    }

    @Override
    public void flushAndClose() {
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void reset() {
        try {
            ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        } catch (RuntimeException e) {
            LOG.debug("SO_LINGER 0 not set: {}", e.toString());
        }
        ctx.close();
    }

    @Override
    public void schedule(ConnectionTimer timer, Duration delay, Runnable fired) {
        timers.put(timer, ctx.executor().schedule(() -> {
            timers.remove(timer);
            boolean going = timer == ConnectionTimer.DISCONNECT ? !ctx.channel().isOpen()
                    : (timer == ConnectionTimer.FIRST_FPDU_NUDGE || timer == ConnectionTimer.RESPONSE_WATCH)
                    && !ctx.channel().isActive();
            if (!going) {
                fired.run();
            }
        }, delay.toNanos(), TimeUnit.NANOSECONDS));
    }

    @Override
    public void cancel(ConnectionTimer timer) {
        ScheduledFuture<?> f = timers.remove(timer);
        if (f != null) {
            f.cancel(false);
        }
    }

    @Override
    public void closed(Teardown teardown) {
        if (qp != null) {
            qp.stateError(); // before the flush completions, so that whoever sees them sees ERROR
        }
        MpaException lost = null;
        if (engine != null) {
            boolean transport = teardown.ending() == Completions.Ending.TRANSPORT;
            lost = teardown.reportLlpError() ? new MpaException(MpaError.TCP_CONNECTION_LOST, transport
                    ? "the TCP connection failed" : "the peer closed the TCP connection (FIN or RST)") : null;
            engine.completions().ending(teardown.ending());
            if (transport) {
                qp.fireAsync(new AsyncEvent(AsyncEvent.Type.CONNECTION_LOST, qp,
                        Optional.ofNullable(engine.completions().terminate()), "TCP connection lost"));
            }
            // RFC 5044 §8 code 0x01: nothing can be sent any more; outstanding work is flushed. A stream that has
            // ended already (a disconnect, a Terminate) ignores the loss: no exception is made for it.
            RdmapStreamState state = engine.stream().state();
            if (lost != null || state == RdmapStreamState.OPERATIONAL || state == RdmapStreamState.TERMINATING) {
                engine.stream().connectionLost(lost != null ? lost : new ClosedChannelException());
            }
            engine.stream().close();
        }
        cm.closed(teardown);
        if (request != null) {
            request.connectionClosed();
        }
        cm.disconnected();
    }
}
