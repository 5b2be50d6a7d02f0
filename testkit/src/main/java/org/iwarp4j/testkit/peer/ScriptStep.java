package org.iwarp4j.testkit.peer;

import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.oracle.Hex;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/** One step of a {@link ScriptedPeer}'s script, run on the peer's thread. */
interface ScriptStep {

    /** What the step does, for failure messages (e.g. {@code expect MPA Request with C=1}). */
    String description();

    /**
     * Runs the step.
     *
     * @param deadline {@code System.nanoTime()} by which the step must be done
     * @throws ScriptFailure when the stack did not do what the step expects
     */
    void run(PeerConnection c, long deadline) throws IOException;

    record Send(byte[] octets, String description) implements ScriptStep {
        @Override
        public void run(PeerConnection c, long deadline) throws IOException {
            c.write(octets);
        }
    }

    /** Sends octets in pieces of the given sizes (the last piece takes the rest), flushing after each. */
    record SendPieces(byte[] octets, int[] sizes, String description) implements ScriptStep {
        @Override
        public void run(PeerConnection c, long deadline) throws IOException {
            int at = 0;
            for (int i = 0; at < octets.length; i++) {
                int n = i < sizes.length ? Math.min(sizes[i], octets.length - at) : octets.length - at;
                c.write(Arrays.copyOfRange(octets, at, at + n));
                at += n;
            }
        }
    }

    /** Sends an MPA Request or Reply and remembers it (the FPDU framing follows from both frames). */
    record SendFrame(StartupFrame frame) implements ScriptStep {
        @Override
        public String description() {
            return "send " + frame;
        }

        @Override
        public void run(PeerConnection c, long deadline) throws IOException {
            c.write(frame.toBytes());
            c.sentFrame = frame;
            c.maybeEnterFullOperation();
        }
    }

    /** Frames a ULPDU with the peer's outbound framing (with an optional defect) and sends it. */
    record SendFpdu(byte[] ulpdu, FpduTamper tamper) implements ScriptStep {
        @Override
        public String description() {
            return "send FPDU with a " + ulpdu.length + "-octet ULPDU"
                    + (tamper == FpduTamper.NONE ? "" : " (" + tamper + ")");
        }

        @Override
        public void run(PeerConnection c, long deadline) throws IOException {
            if (c.tx == null) {
                throw new ScriptFailure(description() + ": not in Full Operation (exchange MPA frames with "
                        + "expectMpa*/sendMpaFrame first, or call fullOperation(...))");
            }
            c.write(c.tx.encode(ulpdu, tamper));
        }
    }

    record ExpectBytes(byte[] expected, String description) implements ScriptStep {
        @Override
        public void run(PeerConnection c, long deadline) throws IOException {
            byte[] got = c.readExactly(expected.length, deadline, description);
            if (!Arrays.equals(got, expected)) {
                throw new ScriptFailure(description + ": the octets differ, " + Hex.diff(expected, got));
            }
        }
    }

    record ExpectMatching(int length, Predicate<byte[]> matcher, String description) implements ScriptStep {
        @Override
        public void run(PeerConnection c, long deadline) throws IOException {
            byte[] got = c.readExactly(length, deadline, description);
            if (!matcher.test(got)) {
                throw new ScriptFailure(description + ": no match; arrived " + Hex.of(got));
            }
        }
    }

    /** The stack ends the connection: FIN, RST, or either ({@code end == null}). */
    record ExpectEnd(PeerConnection.End end) implements ScriptStep {
        @Override
        public String description() {
            return end == null ? "expect the connection to close (FIN or RST)"
                    : end == PeerConnection.End.FIN ? "expect FIN (graceful close)" : "expect RST (reset)";
        }

        @Override
        public void run(PeerConnection c, long deadline) throws IOException {
            PeerConnection.End got = c.readEnd(deadline, description());
            if (end != null && got != end) {
                throw new ScriptFailure(description() + ": got " + got + " instead");
            }
        }
    }

    /** Nothing beyond what earlier steps consumed has arrived so far (a snapshot, no waiting). */
    record ExpectNoBytesPending() implements ScriptStep {
        @Override
        public String description() {
            return "expect no octets pending";
        }

        @Override
        public void run(PeerConnection c, long deadline) throws IOException {
            int n = c.available();
            if (n > 0) {
                byte[] got = c.readExactly(n, deadline, description());
                throw new ScriptFailure(description() + ": " + n + " octets had arrived: " + Hex.of(got));
            }
        }
    }

    record SetFraming(boolean crc, boolean txMarkers, boolean rxMarkers, int txOffset, int rxOffset)
            implements ScriptStep {
        @Override
        public String description() {
            return "enter Full Operation (crc=" + crc + " markers tx=" + txMarkers + " rx=" + rxMarkers + ")";
        }

        @Override
        public void run(PeerConnection c, long deadline) {
            c.tx = new FpduFraming(crc, txMarkers, txOffset);
            c.rx = new FpduFraming(crc, rxMarkers, rxOffset);
        }
    }

    /** Blocks the script until the test completes {@code future} (bounded by the step timeout). */
    record Await(Future<?> future, String description) implements ScriptStep {
        @Override
        public void run(PeerConnection c, long deadline) {
            try {
                future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new ScriptFailure(description + ": timed out waiting for the test");
            } catch (ExecutionException e) {
                throw new ScriptFailure(description + ": the awaited future failed", e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ScriptFailure(description + ": interrupted");
            }
        }
    }

    record Action(Runnable action, String description) implements ScriptStep {
        @Override
        public void run(PeerConnection c, long deadline) {
            action.run();
        }
    }

    /** Ends the peer's connection: FIN only ({@code SHUTDOWN_OUTPUT}), close (FIN), or RST. */
    record Hangup(Kind kind) implements ScriptStep {
        enum Kind { SHUTDOWN_OUTPUT, CLOSE, RESET }

        @Override
        public String description() {
            return switch (kind) {
                case SHUTDOWN_OUTPUT -> "send FIN (shut down output, keep reading)";
                case CLOSE -> "close the connection (FIN)";
                case RESET -> "drop the connection (RST)";
            };
        }

        @Override
        public void run(PeerConnection c, long deadline) throws IOException {
            switch (kind) {
                case SHUTDOWN_OUTPUT -> c.shutdownOutput();
                case CLOSE -> c.close();
                case RESET -> c.reset();
            }
        }
    }
}
