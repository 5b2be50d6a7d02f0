package org.iwarp4j.testkit.peer;

import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.oracle.Hex;
import org.iwarp4j.testkit.ConversationStream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A scripted iWARP peer on a real loopback TCP socket, the test counterpart of the stack (modelled on
 * the qpid-protonj2 test driver). Build a script of steps, start the peer, let the stack under test talk
 * to it, then {@link #waitForScriptToComplete(Duration)}:
 *
 * <pre>{@code
 * try (ScriptedPeer peer = ScriptedPeer.server()) {           // listens on 127.0.0.1:<ephemeral>
 *     peer.expectMpaRequest().withRevision(1).withCrc(true)
 *             .respond(StartupFrame.reply().crc(true));       // now in Full Operation
 *     peer.sendFpdu(ulpdu)                                    // framed with CRC (and markers if asked)
 *         .expectFpdu().withUlpdu(answer).and()
 *         .sendFpdu(next, FpduTamper.BAD_CRC)
 *         .expectFin();
 *     peer.start();
 *     ... connect the stack to peer.address() ...
 *     peer.waitForScriptToComplete(Duration.ofSeconds(5));    // throws ScriptFailure: step, expected vs arrived
 * }
 * }</pre>
 *
 * <p>Steps run one after the other on the peer's own thread, so causality is built in: a send that follows
 * an expectation goes out only after the expected octets arrived. Every wait is bounded by the step
 * timeout ({@link #stepTimeout(Duration)}, default 5 s). Steps may be appended while the peer runs (e.g.
 * after checking the stack's state); {@link #waitForScriptToComplete} waits for the steps added so far.
 * On the first failure the peer resets the connection (so the stack does not hang) and stops.
 *
 * <p>MPA awareness: {@link #expectMpaRequest()}/{@link #expectMpaReply()} and {@link #sendMpaFrame} record
 * the frames; once the Request and an accepting Reply went both ways the peer is in Full Operation with
 * the negotiated CRC and marker settings (RFC 5044 §7.1.1), and {@link #sendFpdu}/{@link #expectFpdu()}
 * frame and check FPDUs with its own oracle ({@link FpduFraming}). {@link #fullOperation} sets the framing
 * explicitly. {@link #replay} plays one side of a recorded conversation byte for byte.
 */
public final class ScriptedPeer implements AutoCloseable {

    /** Default bound of each step. */
    public static final Duration DEFAULT_STEP_TIMEOUT = Duration.ofSeconds(5);

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Object lock = new Object();
    /** Steps [0, sealed) are fully configured and may run; guarded by {@link #lock}. */
    private int sealed;
    private final List<ScriptStep> steps = new ArrayList<>();
    private int done;
    private int running = -1;
    private ScriptFailure failure;
    private boolean closed;
    private Thread thread;
    private volatile PeerConnection connection;
    private volatile Duration stepTimeout = DEFAULT_STEP_TIMEOUT;

    private ScriptedPeer(ServerSocket server, InetSocketAddress target) {
        this.server = server;
        this.target = target;
    }

    /** A peer that accepts one connection on 127.0.0.1 at an ephemeral port ({@link #address()}). */
    public static ScriptedPeer server() {
        try {
            ServerSocket s = new ServerSocket();
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            return new ScriptedPeer(s, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A peer that connects to {@code target} (a loopback address) when started. */
    public static ScriptedPeer client(InetSocketAddress target) {
        return new ScriptedPeer(null, Objects.requireNonNull(target));
    }

    /** Server: the address it listens on. Client: the address it connects to. */
    public InetSocketAddress address() {
        return server != null ? (InetSocketAddress) server.getLocalSocketAddress() : target;
    }

    /** Bound of each step (and of accepting/connecting). */
    public ScriptedPeer stepTimeout(Duration timeout) {
        stepTimeout = Objects.requireNonNull(timeout);
        return this;
    }

    // ------------------------------------------------------------------ script: expectations

    /** Expect exactly these octets next. */
    public ScriptedPeer expectBytes(byte[] octets) {
        return expectBytes(octets, "expect " + octets.length + " octets " + Hex.of(octets));
    }

    /** Expect exactly these octets next; {@code description} names them in failure messages. */
    public ScriptedPeer expectBytes(byte[] octets, String description) {
        return add(new ScriptStep.ExpectBytes(octets.clone(), description));
    }

    /** Expect {@code length} octets that satisfy {@code matcher}. */
    public ScriptedPeer expectBytes(int length, Predicate<byte[]> matcher, String description) {
        return add(new ScriptStep.ExpectMatching(length, matcher, "expect " + length + " octets: " + description));
    }

    /** Expect an MPA Request; add conditions to the returned step. */
    public MpaFrameExpectation expectMpaRequest() {
        MpaFrameExpectation e = new MpaFrameExpectation(this, true);
        addUnsealed(e);
        return e;
    }

    /** Expect an MPA Reply; add conditions to the returned step. */
    public MpaFrameExpectation expectMpaReply() {
        MpaFrameExpectation e = new MpaFrameExpectation(this, false);
        addUnsealed(e);
        return e;
    }

    /** Expect a valid FPDU (Full Operation); add conditions to the returned step. */
    public FpduExpectation expectFpdu() {
        FpduExpectation e = new FpduExpectation(this);
        addUnsealed(e);
        return e;
    }

    /** Expect a valid FPDU carrying exactly {@code ulpdu}. */
    public ScriptedPeer expectFpduWithUlpdu(byte[] ulpdu) {
        return expectFpdu().withUlpdu(ulpdu).and();
    }

    /** Expect the stack to close gracefully (FIN) with nothing more sent. */
    public ScriptedPeer expectFin() {
        return add(new ScriptStep.ExpectEnd(PeerConnection.End.FIN));
    }

    /** Expect the stack to reset the connection (RST). */
    public ScriptedPeer expectReset() {
        return add(new ScriptStep.ExpectEnd(PeerConnection.End.RST));
    }

    /** Expect the connection to end, by FIN or RST, with nothing more sent. */
    public ScriptedPeer expectClose() {
        return add(new ScriptStep.ExpectEnd(null));
    }

    /**
     * Check, without waiting, that no octet beyond those consumed by earlier steps has arrived. Only a
     * snapshot: a correct stack always passes; a wrong one is caught if its octets are already here.
     */
    public ScriptedPeer expectNoBytesPending() {
        return add(new ScriptStep.ExpectNoBytesPending());
    }

    // ------------------------------------------------------------------ script: actions

    /** Send these octets (raw: anything, including corrupt frames). */
    public ScriptedPeer send(byte[] octets) {
        return send(octets, "send " + octets.length + " octets " + Hex.of(octets));
    }

    public ScriptedPeer send(byte[] octets, String description) {
        return add(new ScriptStep.Send(octets.clone(), description));
    }

    public ScriptedPeer sendHex(String hex) {
        return send(Hex.parse(hex));
    }

    /** Send octets in pieces of the given sizes (each written and flushed separately; the rest goes last). */
    public ScriptedPeer sendInPieces(byte[] octets, int... pieceSizes) {
        return add(new ScriptStep.SendPieces(octets.clone(), pieceSizes.clone(),
                "send " + octets.length + " octets in pieces " + Arrays.toString(pieceSizes)));
    }

    /** Send an MPA frame and remember it for the Full Operation framing. */
    public ScriptedPeer sendMpaFrame(StartupFrame.Builder frame) {
        return add(new ScriptStep.SendFrame(frame.build()));
    }

    /** Send exactly one MPA frame given as octets (parsed and remembered; the octets go out unchanged). */
    public ScriptedPeer sendMpaFrame(byte[] octets) {
        StartupFrame f = StartupFrame.parse(octets);
        if (f.length() != octets.length || f.pdLength() != f.privateData().length) {
            throw new IllegalArgumentException("not exactly one MPA frame (" + octets.length + " octets, " + f
                    + "); use send(...) for raw octets");
        }
        return add(new ScriptStep.SendFrame(f));
    }

    /** Frame {@code ulpdu} as an FPDU with the peer's outbound framing and send it. */
    public ScriptedPeer sendFpdu(byte[] ulpdu) {
        return sendFpdu(ulpdu, FpduTamper.NONE);
    }

    /** Frame {@code ulpdu} with a deliberate defect and send it. */
    public ScriptedPeer sendFpdu(byte[] ulpdu, FpduTamper tamper) {
        return add(new ScriptStep.SendFpdu(ulpdu.clone(), tamper));
    }

    /**
     * Enter Full Operation explicitly: FPDU framing for both directions, both starting at stream offset 0
     * (SeqStart = the next octet each way).
     */
    public ScriptedPeer fullOperation(boolean crc, boolean txMarkers, boolean rxMarkers) {
        return fullOperation(crc, txMarkers, rxMarkers, 0, 0);
    }

    /** As {@link #fullOperation(boolean, boolean, boolean)} with the stream offsets of the next FPDU each way. */
    public ScriptedPeer fullOperation(boolean crc, boolean txMarkers, boolean rxMarkers, int txOffset, int rxOffset) {
        return add(new ScriptStep.SetFraming(crc, txMarkers, rxMarkers, txOffset, rxOffset));
    }

    /** Pause the script until the test completes {@code future} (bounded by the step timeout). */
    public ScriptedPeer waitFor(Future<?> future, String description) {
        return add(new ScriptStep.Await(future, "wait for " + description));
    }

    /** Run {@code action} on the peer's thread at this point of the script (e.g. to signal the test). */
    public ScriptedPeer run(String description, Runnable action) {
        return add(new ScriptStep.Action(action, description));
    }

    /** Send FIN (shut down the peer's output) and keep reading. */
    public ScriptedPeer shutdownOutput() {
        return add(new ScriptStep.Hangup(ScriptStep.Hangup.Kind.SHUTDOWN_OUTPUT));
    }

    /** Close the connection gracefully (FIN). */
    public ScriptedPeer closeConnection() {
        return add(new ScriptStep.Hangup(ScriptStep.Hangup.Kind.CLOSE));
    }

    /** Drop the connection abortively (RST). */
    public ScriptedPeer dropConnection() {
        return add(new ScriptStep.Hangup(ScriptStep.Hangup.Kind.RESET));
    }

    /**
     * Play side {@code peerSide} of a recorded conversation: each recorded segment of that side is sent
     * as one write, each segment of the other side is expected byte for byte, in recorded order — so each
     * of the peer's segments goes out only after everything the stack sent before it in the recording
     * has arrived.
     */
    public ScriptedPeer replay(ConversationStream stream, ConversationStream.Direction peerSide) {
        return replay(stream.name(), stream.segments(), peerSide);
    }

    /** As {@link #replay(ConversationStream, ConversationStream.Direction)} for a list of segments. */
    public ScriptedPeer replay(String name, List<ConversationStream.Segment> segments,
                               ConversationStream.Direction peerSide) {
        int k = 0;
        for (ConversationStream.Segment s : segments) {
            k++;
            String what = String.format("%s segment %d (%s, offset %d, %d octets)", name, k, s.direction(),
                    s.offset(), s.payload().length);
            if (s.direction() == peerSide) {
                add(new ScriptStep.Send(s.payload().clone(), "send recorded " + what));
            } else {
                add(new ScriptStep.ExpectBytes(s.payload().clone(), "expect recorded " + what));
            }
        }
        return this;
    }

    private ScriptedPeer add(ScriptStep step) {
        append(step, true);
        return this;
    }

    /**
     * Adds an expectation that the test is still configuring ({@code withCrc(...)}, {@code matching(...)}):
     * the peer does not run it until it is sealed — by the next step, {@code and()}, {@code received()},
     * {@link #start()} or {@link #waitForScriptToComplete}. Without this, octets the stack had already sent
     * could be consumed by the step before its conditions were attached.
     */
    private void addUnsealed(ScriptStep step) {
        append(step, false);
    }

    private void append(ScriptStep step, boolean complete) {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("peer closed");
            }
            sealed = steps.size(); // a new step completes the configuration of every earlier one
            steps.add(step);
            if (complete) {
                sealed = steps.size();
            }
            lock.notifyAll();
        }
    }

    /** Makes every step added so far runnable (their configuration is complete). */
    void seal() {
        synchronized (lock) {
            sealed = steps.size();
            lock.notifyAll();
        }
    }

    // ------------------------------------------------------------------ running

    /** Starts the peer's thread: accept (server) or connect (client), then run the steps. */
    public ScriptedPeer start() {
        seal();
        synchronized (lock) {
            if (thread != null) {
                throw new IllegalStateException("already started");
            }
            thread = new Thread(this::runScript, "scripted-peer-" + address().getPort());
            thread.setDaemon(true);
            thread.start();
        }
        return this;
    }

    private void runScript() {
        PeerConnection c;
        try {
            c = open();
        } catch (ScriptFailure f) {
            fail(f);
            return;
        } catch (IOException e) {
            fail(new ScriptFailure("could not " + (server != null ? "accept" : "connect") + ": " + e, e));
            return;
        }
        connection = c;
        while (true) {
            ScriptStep step;
            int index;
            synchronized (lock) {
                while (!closed && done >= sealed) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                index = done;
                step = steps.get(index);
                running = index;
            }
            c.beginStep();
            try {
                step.run(c, System.nanoTime() + stepTimeout.toNanos());
            } catch (ScriptFailure f) {
                fail(stepFailure(index, step, f.getMessage(), f));
                return;
            } catch (IOException | RuntimeException e) {
                fail(stepFailure(index, step, e.toString(), e));
                return;
            }
            synchronized (lock) {
                done++;
                running = -1;
                lock.notifyAll();
            }
        }
    }

    private PeerConnection open() throws IOException {
        int ms = (int) stepTimeout.toMillis();
        if (server != null) {
            server.setSoTimeout(ms);
            try {
                return new PeerConnection(server.accept());
            } catch (SocketTimeoutException e) {
                throw new ScriptFailure("no connection to " + address() + " within " + stepTimeout);
            }
        }
        Socket s = new Socket();
        s.connect(target, ms);
        return new PeerConnection(s);
    }

    private ScriptFailure stepFailure(int index, ScriptStep step, String message, Throwable cause) {
        String prefix = "step " + (index + 1) + "/" + stepCount() + " [" + step.description() + "]";
        String m = message.startsWith(step.description()) ? message.substring(step.description().length())
                : ": " + message;
        return new ScriptFailure(prefix + m + "\n" + transcript(), cause instanceof ScriptFailure ? null : cause);
    }

    private int stepCount() {
        synchronized (lock) {
            return steps.size();
        }
    }

    private void fail(ScriptFailure f) {
        PeerConnection c = connection;
        if (c != null) {
            try {
                c.reset(); // do not leave the stack waiting for a peer that gave up
            } catch (IOException ignored) {
                // already gone
            }
        }
        synchronized (lock) {
            if (failure == null) {
                failure = f;
            }
            running = -1;
            lock.notifyAll();
        }
    }

    /**
     * Waits until every step added so far has run; throws the first {@link ScriptFailure}, or one saying
     * which step is still waiting (and what it has received) when {@code timeout} passes.
     */
    public void waitForScriptToComplete(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        seal();
        synchronized (lock) {
            if (thread == null) {
                throw new IllegalStateException("the peer was not started");
            }
            while (failure == null && done < steps.size()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    ScriptStep step = steps.get(done);
                    PeerConnection c = connection;
                    throw new ScriptFailure("script not complete after " + timeout + ": step " + (done + 1) + "/"
                            + steps.size() + " [" + step.description() + "] is "
                            + (running == done ? "still waiting" : "not started")
                            + (c == null ? " (no connection yet)"
                                    : "; received in this step: " + Hex.of(c.receivedThisStep()))
                            + "\n" + transcript());
                }
                try {
                    lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ScriptFailure("interrupted while waiting for the script");
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }

    /** The first failure, or null. */
    public ScriptFailure failure() {
        synchronized (lock) {
            return failure;
        }
    }

    /** Every octet received from the stack so far. */
    public byte[] received() {
        PeerConnection c = connection;
        return c == null ? new byte[0] : c.received();
    }

    /** Every octet sent to the stack so far. */
    public byte[] sent() {
        PeerConnection c = connection;
        return c == null ? new byte[0] : c.sent();
    }

    private String transcript() {
        PeerConnection c = connection;
        if (c == null) {
            return "  (no connection)";
        }
        byte[] in = c.received();
        byte[] out = c.sent();
        return "  peer received " + in.length + " octets: " + Hex.of(in) + "\n  peer sent " + out.length
                + " octets: " + Hex.of(out);
    }

    /** Stops the peer and closes its sockets (the connection gracefully if it is still open). */
    @Override
    public void close() {
        Thread t;
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
            t = thread;
        }
        PeerConnection c = connection;
        try {
            if (c != null) {
                c.close();
            }
            if (server != null) {
                server.close();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
        if (t != null) {
            try {
                t.join(stepTimeout.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
