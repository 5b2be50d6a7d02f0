package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.MpaRejection;
import org.iwarp4j.mpa.MpaRole;
import org.iwarp4j.mpa.StartupOutcome;
import org.iwarp4j.mpa.fpdu.FpduLayout;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.mpa.startup.InitiatorStartup;
import org.iwarp4j.mpa.startup.ResponderStartup;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The MPA startup phase (RFC 5044 §7.1, RFC 6581) as a one-shot Netty handler, modelled on
 * {@code HAProxyMessageDecoder}: it exchanges the MPA Request/Reply, then replaces itself with
 * {@link FpduDecoder} and {@link FpduEncoder} and fires one {@link MpaStartupEvent}.
 *
 * <p>Put it where the FPDU codec belongs, directly above the TCP transport:
 * {@code pipeline.addLast(MpaStartupHandler.initiator(config), ddpHandler)}. It starts when the
 * channel is (or becomes) active — MPA is enabled at the same octet position in both directions
 * (§7.1), so adding it later ("delayed startup") also works.
 *
 * <p>Initiator: sends the Request at once and then nothing until the whole Reply is parsed (§7.1.2);
 * Responder: waits for the Request (bounded by {@code requestTimeout}: Responder/Responder detection,
 * rule 8), then accepts automatically or fires {@link MpaConnectRequest} and waits for its user.
 * The whole startup is bounded by {@code startupTimeout} (rule 10). Invalid frames (bad key, Rev 0 or
 * ≥ 3, PD_Length &gt; 512, S=1 with PD_Length &lt; 4, a frame of the wrong role) fail with 0x04 and
 * close the TCP connection at once. Octets that follow an accepting Reply (at the Initiator) or an
 * accepted Request (at the Responder) in the same read are kept and handed to the FPDU decoder, never
 * lost — unless {@code rejectDataBeforeReply}, which treats them as a PD_Length mismatch (0x04, close);
 * SeqStart of each direction is the first octet after its frame.
 *
 * <p>Writes arriving while startup is in progress are refused (the promise fails, the buffer is
 * released): nothing but the startup frames may go out before Full Operation (§7.1.2).
 */
public final class MpaStartupHandler extends ChannelDuplexHandler {

    /** Pipeline name of the installed FPDU decoder. */
    public static final String DECODER_NAME = "mpa-fpdu-decoder";
    /** Pipeline name of the installed FPDU encoder. */
    public static final String ENCODER_NAME = "mpa-fpdu-encoder";

    private enum State { IDLE, AWAITING_REPLY, AWAITING_REQUEST, AWAITING_DECISION, DONE }

    private final MpaRole role;
    private final MpaConfig config;
    private ChannelHandlerContext ctx;
    private State state = State.IDLE;
    /** Octets received and not yet consumed; {@code null} when there are none (nothing is held for nothing). */
    private ByteBuf cumulation;
    private InitiatorStartup initiator;
    private ResponderStartup responder;
    private ScheduledFuture<?> startupTimer;
    private ScheduledFuture<?> requestTimer;
    private int emss;

    public MpaStartupHandler(MpaRole role, MpaConfig config) {
        this.role = Objects.requireNonNull(role, "role");
        this.config = Objects.requireNonNull(config, "config");
    }

    /** An Initiator's handler (sends the MPA Request). */
    public static MpaStartupHandler initiator(MpaConfig config) {
        return new MpaStartupHandler(MpaRole.INITIATOR, config);
    }

    /** A Responder's handler (waits for the MPA Request). */
    public static MpaStartupHandler responder(MpaConfig config) {
        return new MpaStartupHandler(MpaRole.RESPONDER, config);
    }

    public MpaRole role() {
        return role;
    }

    public MpaConfig config() {
        return config;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        // Before the channel's first read, which fixes its read handle: the FPDU decoder sizes the reads later.
        FpduReadSizes.install(ctx.channel());
        if (ctx.channel().isActive()) {
            start();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start();
        ctx.fireChannelActive();
    }

    private void start() {
        if (state != State.IDLE) {
            return;
        }
        emss = EmssProbe.emss(ctx.channel(), config.emss());
        startupTimer = ctx.executor().schedule(() -> timeout("MPA startup did not complete within "
                + config.startupTimeout()), config.startupTimeout().toNanos(), TimeUnit.NANOSECONDS);
        if (role == MpaRole.INITIATOR) {
            initiator = new InitiatorStartup(config, emss);
            state = State.AWAITING_REPLY;
            sendFrame(initiator.request());
        } else {
            responder = new ResponderStartup(config, emss);
            state = State.AWAITING_REQUEST;
            requestTimer = ctx.executor().schedule(() -> timeout("no MPA Request within " + config.requestTimeout()
                    + " (is the peer a Responder too?)"), config.requestTimeout().toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private ChannelFuture sendFrame(MpaFrame frame) {
        ByteBuf buf = ctx.alloc().buffer(frame.length());
        frame.encode(buf);
        if (MpaFrameLog.enabled()) {
            MpaFrameLog.frame(ctx.channel().toString(), true, frame);
        }
        return ctx.writeAndFlush(buf);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (state == State.DONE || !(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        cumulation =
                cumulation == null ? in : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), cumulation, in);
        process();
    }

    private void process() {
        switch (state) {
            case AWAITING_REPLY, AWAITING_REQUEST -> parseFrame();
            case AWAITING_DECISION -> checkEarlyData();
            default -> { }
        }
    }

    private void parseFrame() {
        MpaFrame frame;
        try {
            frame = MpaFrameCodec.parse(cumulation);
        } catch (MpaException e) {
            fail(MpaStartupFailedEvent.Reason.INVALID_FRAME, e, true);
            return;
        }
        if (frame == null) {
            return;
        }
        cumulation.skipBytes(frame.length());
        if (!cumulation.isReadable()) {
            // The read held the frame and nothing after it (the usual case): give it back now, not at the end of
            // startup. A Responder may wait long for the application's decision: a buffer held across that wait
            // is one per pending request, and leaks with a connection that is never closed.
            releaseCumulation();
        }
        if (MpaFrameLog.enabled()) {
            MpaFrameLog.frame(ctx.channel().toString(), false, frame);
        }
        if (state == State.AWAITING_REPLY) {
            onReply(frame);
        } else {
            onRequest(frame);
        }
    }

    private void onReply(MpaFrame reply) {
        StartupOutcome outcome;
        try {
            outcome = initiator.onReply(reply);
        } catch (MpaException e) {
            fail(reply.type() == initiator.request().type() ? MpaStartupFailedEvent.Reason.ROLE_CONFLICT
                    : MpaStartupFailedEvent.Reason.INVALID_FRAME, e, true);
            return;
        }
        if (outcome instanceof MpaParameters params) {
            if (config.rejectDataBeforeReply(MpaRole.INITIATOR) && cumulation != null) {
                // RFC 5044 §7.1.1: these octets arrived with the Reply, before this Initiator could send its
                // first FPDU, and the Responder may not send one before that (§7.1.2 rule 4): PD_Length
                // does not match the private data actually sent.
                fail(MpaStartupFailedEvent.Reason.INVALID_FRAME, new MpaException(MpaError.INVALID_STARTUP_FRAME,
                        cumulation.readableBytes() + " octets arrived with the MPA Reply, before the Initiator sent"
                                + " its first FPDU: PD_Length does not match the private data"), true);
                return;
            }
            establish(params);
        } else {
            rejected((MpaRejection) outcome);
        }
    }

    private void onRequest(MpaFrame request) {
        try {
            responder.onRequest(request);
        } catch (MpaException e) {
            fail(request.type() == MpaFrameType.REPLY
                    ? MpaStartupFailedEvent.Reason.ROLE_CONFLICT : MpaStartupFailedEvent.Reason.INVALID_FRAME, e, true);
            return;
        }
        cancel(requestTimer);
        state = State.AWAITING_DECISION;
        if (!checkEarlyData()) {
            return;
        }
        if (responder.insufficientInitiatorIrd()) {
            // RFC 6581 §9.1: reject with the needed ORD in the Reply.
            doReject(config.privateData(), config.requiredOrd());
            return;
        }
        if (config.autoAccept()) {
            doAccept(responder.defaultAcceptance());
        } else {
            ctx.fireUserEventTriggered(new MpaConnectRequest(this, request));
        }
    }

    /** Responder: octets after the Request before our Reply. Returns false if startup failed. */
    private boolean checkEarlyData() {
        if (cumulation == null || !cumulation.isReadable()) {
            return true;
        }
        if (config.rejectDataBeforeReply(MpaRole.RESPONDER)) {
            // RFC 5044 §7.1.1 / §7.1.2: the Initiator sends nothing after its Request until the Reply, so
            // extra octets mean PD_Length did not match the private data actually sent.
            fail(MpaStartupFailedEvent.Reason.INVALID_FRAME, new MpaException(MpaError.INVALID_STARTUP_FRAME,
                    cumulation.readableBytes() + " octets followed the MPA Request before the Reply was sent:"
                            + " PD_Length does not match the private data"), true);
            return false;
        }
        int bound = FpduLayout.maxWireLength(config.receiveUlpduLimit(), config.markers());
        if (cumulation.readableBytes() > bound) {
            fail(MpaStartupFailedEvent.Reason.INVALID_FRAME, new MpaException(MpaError.INVALID_STARTUP_FRAME,
                    cumulation.readableBytes() + " octets arrived after the MPA Request before the Reply"), true);
            return false;
        }
        return true;
    }

    ChannelFuture acceptFromUser(byte[] privateData, int ird, int ord, int irdLimit) {
        ChannelPromise promise = ctx.newPromise();
        ctx.executor().execute(() -> {
            if (state != State.AWAITING_DECISION) {
                promise.tryFailure(new IllegalStateException("the MPA Request is no longer waiting for a decision ("
                        + state + ")"));
                return;
            }
            ResponderStartup.Acceptance def = responder.defaultAcceptance();
            ResponderStartup.Acceptance a = new ResponderStartup.Acceptance(
                    privateData != null ? privateData : def.privateData(), ird >= 0 ? ird : def.ird(),
                    ord >= 0 ? ord : def.ord(), irdLimit);
            try {
                doAccept(a).addListener(f -> relay(f, promise));
            } catch (RuntimeException e) {
                promise.tryFailure(e);
            }
        });
        return promise;
    }

    ChannelFuture rejectFromUser(byte[] privateData) {
        ChannelPromise promise = ctx.newPromise();
        ctx.executor().execute(() -> {
            if (state != State.AWAITING_DECISION) {
                promise.tryFailure(new IllegalStateException("the MPA Request is no longer waiting for a decision ("
                        + state + ")"));
                return;
            }
            try {
                doReject(privateData, -1).addListener(f -> relay(f, promise));
            } catch (RuntimeException e) {
                promise.tryFailure(e);
            }
        });
        return promise;
    }

    private static void relay(Future<?> f, ChannelPromise promise) {
        if (f.isSuccess()) {
            promise.trySuccess();
        } else {
            promise.tryFailure(f.cause());
        }
    }

    private ChannelFuture doAccept(ResponderStartup.Acceptance acceptance) {
        ResponderStartup.Accepted accepted = responder.accept(acceptance); // may throw IllegalArgumentException
        ChannelFuture written = sendFrame(accepted.reply());
        establish(accepted.parameters());
        return written;
    }

    private ChannelFuture doReject(byte[] privateData, int neededOrd) {
        MpaRejection rejection = responder.reject(privateData, neededOrd);
        ChannelFuture written = sendFrame(rejection.reply());
        rejected(rejection);
        return written;
    }

    private void establish(MpaParameters params) {
        state = State.DONE;
        cancelTimers();
        FpduReader reader = new FpduReader(params.crc(), params.rxMarkers(), params.receiveUlpduLimit(), 0);
        FpduWriter writer = new FpduWriter(params.crc(), params.txMarkers(), params.mulpdu(), 0);
        boolean hold = params.role() == MpaRole.RESPONDER;
        FpduEncoder encoder = new FpduEncoder(writer, hold);
        FpduDecoder decoder = new FpduDecoder(reader);
        if (hold) {
            decoder.onFirstFpdu(encoder::releaseHold);
        }
        ctx.pipeline().addAfter(ctx.name(), DECODER_NAME, decoder);
        ctx.pipeline().addAfter(ctx.name(), ENCODER_NAME, encoder);
        ctx.fireUserEventTriggered(new MpaEstablishedEvent(params, encoder));
        handOverAndRemove(true);
    }

    private void rejected(MpaRejection rejection) {
        state = State.DONE;
        cancelTimers();
        ctx.fireUserEventTriggered(new MpaRejectedEvent(rejection));
        // RFC 5044 §7.1.2: MPA is left; the TCP connection stays open for the ULP, which gets any
        // octets that followed the Reply as plain stream data.
        handOverAndRemove(role == MpaRole.INITIATOR);
    }

    private void fail(MpaStartupFailedEvent.Reason reason, MpaException e, boolean close) {
        if (state == State.DONE) {
            return;
        }
        state = State.DONE;
        cancelTimers();
        releaseCumulation();
        ctx.fireUserEventTriggered(new MpaStartupFailedEvent(reason, e, close || !ctx.channel().isActive()));
        if (close) {
            ctx.close();
        }
        removeSelf();
    }

    private void timeout(String message) {
        if (state == State.DONE || state == State.IDLE) {
            return;
        }
        fail(MpaStartupFailedEvent.Reason.TIMEOUT, new MpaException(MpaError.TCP_CONNECTION_LOST, message), true);
    }

    /** Removes this handler, passing remaining octets on (or dropping them). */
    private void handOverAndRemove(boolean passOn) {
        ByteBuf rest = cumulation;
        cumulation = null;
        if (rest != null) {
            if (passOn && rest.isReadable()) {
                ctx.fireChannelRead(rest);
                ctx.fireChannelReadComplete();
            } else {
                rest.release();
            }
        }
        removeSelf();
    }

    private void removeSelf() {
        if (!ctx.isRemoved()) {
            ctx.pipeline().remove(this);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (state != State.DONE && state != State.IDLE) {
            fail(MpaStartupFailedEvent.Reason.CONNECTION_CLOSED, new MpaException(MpaError.TCP_CONNECTION_LOST,
                    "the connection closed during MPA startup (" + state + ")"), false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (state == State.DONE) {
            ctx.write(msg, promise);
            return;
        }
        ReferenceCountUtil.release(msg);
        promise.tryFailure(new IllegalStateException(
                "MPA startup not complete: nothing may be sent before Full Operation (RFC 5044 §7.1.2)"));
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelTimers();
        releaseCumulation();
    }

    private void releaseCumulation() {
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }

    private void cancelTimers() {
        cancel(startupTimer);
        cancel(requestTimer);
    }

    private static void cancel(ScheduledFuture<?> f) {
        if (f != null) {
            f.cancel(false);
        }
    }

    /** Effective MSS used for MULPDU (known once started). */
    int emss() {
        return emss;
    }
}
