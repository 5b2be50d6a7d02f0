package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.fpdu.DissectedFpdu;
import org.iwarp4j.mpa.fpdu.DissectionError;
import org.iwarp4j.mpa.fpdu.FpduDissector;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.tools.report.Layer;

/**
 * Decodes the octets of one direction with the mpa module's own decoders: an MPA Request or Reply
 * ({@link MpaFrameCodec}), then FPDUs ({@link FpduDissector}), one {@link Entry} per frame and per error.
 *
 * <p>The FPDUs are dissected as {@link #next()} asks for them, one at a time, so a caller that does not keep
 * the entries ({@code explain --summary}) decodes a direction of any length in the memory of one FPDU;
 * {@link #entries()} collects them all.
 */
final class HalfConnectionDecoder {

    /** What {@link #startupFrame} found. */
    sealed interface Startup {}

    /** A valid frame. */
    record Parsed(MpaFrame frame, Layer layer) implements Startup {}

    /** The direction is empty: no frame. */
    record Absent() implements Startup {}

    /** Not a valid frame (an error entry was added). */
    record Invalid() implements Startup {}

    private static final String NOTHING_MORE = "After an error MPA delivers nothing more of this half connection ("
            + Rfc.MPA_ERRORS + "); FPDUs after this point are shown for analysis only.";

    private final ByteBuf bytes;
    private final int length;
    private final Origin origin;
    private final boolean octets;
    /** Entries in stream order, not yet handed out: the startup frame's, then those of the FPDUs dissected. */
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    /** Problems of the capture ({@link #captureProblem}), at any offset: sorted in when the entries are read. */
    private final List<Entry> problems = new ArrayList<>();
    private int nextProblem = -1;
    private List<Entry> all;
    private int errors;
    private boolean truncatedAtEnd;
    private Fpdus fpdus;
    private String hole;
    private int dissected;

    /**
     * @param bytes  the octets, from its reader index on (not consumed, not released, left unchanged)
     * @param octets whether an FPDU's layer shows its ULPDU's octets ({@link FpduView#of})
     */
    HalfConnectionDecoder(ByteBuf bytes, Origin origin, boolean octets) {
        this.bytes = bytes.slice();
        this.length = this.bytes.readableBytes();
        this.origin = origin;
        this.octets = octets;
    }

    int length() {
        return length;
    }

    /**
     * Every entry in stream order (an error after the frame it concerns), decoded at the first call; not to be
     * mixed with {@link #next()}.
     */
    List<Entry> entries() {
        if (all == null) {
            all = new ArrayList<>();
            for (Entry e = next(); e != null; e = next()) {
                all.add(e);
            }
        }
        return all;
    }

    /**
     * The next entry in stream order (an error after the frame it concerns), dissecting the next FPDU when
     * none is left; {@code null} after the last.
     */
    Entry next() {
        if (nextProblem < 0) {
            problems.sort(Comparator.comparingLong(Entry::offset)); // stable: capture order at one offset
            nextProblem = 0;
        }
        while (entries.isEmpty() && fpdus != null) {
            fpdus.more();
        }
        Entry problem = nextProblem < problems.size() ? problems.get(nextProblem) : null;
        Entry e = entries.peekFirst();
        // As a stable sort of the entries followed by the problems: at one offset an entry before a problem.
        if (problem != null && (e == null || problem.offset() < e.offset())) {
            problems.set(nextProblem++, null);
            return problem;
        }
        return entries.pollFirst();
    }

    /** Errors among the entries handed out so far (all of them, once {@link #next()} returned {@code null}). */
    int errors() {
        return errors;
    }

    /** FPDUs dissected so far. */
    int dissected() {
        return dissected;
    }

    /**
     * Parses the MPA Request or Reply at offset 0.
     *
     * @param expected the frame this side must send, or {@code null} when either is fine
     */
    Startup startupFrame(MpaFrameType expected) {
        if (length == 0) {
            return new Absent();
        }
        ByteBuf in = bytes.duplicate();
        MpaFrame frame;
        try {
            frame = MpaFrameCodec.parse(in);
        } catch (MpaException e) {
            long at = e.streamOffset() == MpaException.NO_OFFSET ? 0 : e.streamOffset();
            mpaError(e.error(), e.detail(), at, "MPA closes the TCP connection at once ("
                    + Rfc.MPA_STARTUP + "): nothing after this is MPA.");
            return new Invalid();
        }
        if (frame == null) {
            truncatedAtEnd = true;
            mpaError(MpaError.TCP_CONNECTION_LOST, "the octets end inside an MPA startup frame: " + incompleteFrame(),
                    length, null);
            return new Invalid();
        }
        Layer layer = StartupFrameView.of(frame, 0, origin);
        entries.add(new Entry(frame.type() == MpaFrameType.REQUEST ? Entry.Kind.MPA_REQUEST : Entry.Kind.MPA_REPLY,
                0, frame.length(), origin.frameAt(0), annotated(layer, 0, frame.length())));
        if (expected != null && frame.type() != expected) {
            // RFC 5044 §7.1.2: the keys tell Initiator/Initiator (or Responder/Responder) startup apart.
            mpaError(MpaError.INVALID_STARTUP_FRAME,
                    "expected an MPA " + name(expected) + " from this side but got an MPA "
                    + name(frame.type()) + ": both ends act as "
                    + (expected == MpaFrameType.REPLY ? "Initiators" : "Responders")
                    + ", which MPA does not support", 0, null);
            return new Invalid();
        }
        return new Parsed(frame, layer);
    }

    /** Whether the startup frame failed on its very first key octet (the octets are probably not an MPA frame). */
    boolean badKeyAtStart() {
        Entry first = entries.peekFirst();
        return first != null && first.kind() == Entry.Kind.ERROR && first.offset() == 0
                && length > 0 && bytes.getByte(0) != MpaFrameType.REQUEST.keyOctet(0);
    }

    /** Dissects the octets from {@code from} to the end as FPDUs, as {@link #next()} asks for them. */
    void fpdus(int from, boolean crc, boolean markers, long streamOffset) {
        fpdus = new Fpdus(from, markers, new FpduDissector(crc, markers, (int) streamOffset)
                .cursor(bytes.slice(from, length - from)));
    }

    /** The FPDUs of the direction, dissected one at a time. */
    private final class Fpdus {
        private final int from;
        private final boolean markers;
        private final FpduDissector.Cursor cursor;
        private boolean failed;

        Fpdus(int from, boolean markers, FpduDissector.Cursor cursor) {
            this.from = from;
            this.markers = markers;
            this.cursor = cursor;
        }

        /** Adds the next FPDU's entries, or at the end what stopped the dissection and the hole, if any. */
        void more() {
            DissectedFpdu d = cursor.next();
            if (d == null) {
                fpdus = null;
                end();
                return;
            }
            dissected++;
            long offset = from + (long) d.inputOffset();
            Layer layer = FpduView.of(d, offset, markers, origin, octets);
            if (failed) {
                layer.note("Not delivered: it follows an MPA error in this half connection (" + Rfc.MPA_ERRORS + ").");
            }
            entries.add(new Entry(Entry.Kind.FPDU, offset, d.wireLength(), origin.frameAt(offset),
                    annotated(layer, offset, d.wireLength()),
                    new Entry.Segment(d.ulpduView(), !failed && d.error() == null, origin)));
            if (d.error() != null) {
                dissectionError(d.error(), from, failed ? null : NOTHING_MORE);
                failed = true;
            }
        }

        private void end() {
            DissectionError stop = cursor.error();
            if (stop != null) {
                truncatedAtEnd = stop.error() == MpaError.TCP_CONNECTION_LOST;
                if (hole == null || !truncatedAtEnd) {
                    dissectionError(stop, from, truncatedAtEnd ? null
                            : "The FPDU boundary is lost: nothing after this point can be decoded.");
                }
            }
            if (hole != null) {
                holeEntry();
            }
        }
    }

    /**
     * Reports the hole that ends a captured stream; an "input ends inside a frame" error just before
     * it is the hole's doing and is replaced by it.
     */
    void captureEndsAtHole(String message) {
        hole = message;
        if (fpdus != null) {
            return; // after the last FPDU
        }
        if (truncatedAtEnd) {
            Entry last = entries.pollLast();
            if (last.kind() == Entry.Kind.ERROR) {
                errors--;
            }
        }
        holeEntry();
    }

    private void holeEntry() {
        Layer layer = ErrorView.capture(hole, length, origin);
        entries.add(new Entry(Entry.Kind.ERROR, length, 0, origin.frameAt(length), annotated(layer, length, 0)));
        errors++;
    }

    /** Reports a problem with the capture at {@code offset} that does not stop decoding. */
    void captureProblem(String message, long offset) {
        Layer layer = ErrorView.capture(message, offset, origin);
        problems.add(new Entry(Entry.Kind.ERROR, offset, 0, origin.frameAt(offset), annotated(layer, offset, 0)));
        errors++;
    }

    private void dissectionError(DissectionError e, int from, String consequence) {
        mpaError(e.error(), e.message(), from + (long) e.inputOffset(), consequence);
    }

    private void mpaError(MpaError error, String message, long offset, String consequence) {
        Layer layer = ErrorView.mpa(error, message, offset, origin, consequence);
        entries.add(new Entry(Entry.Kind.ERROR, offset, 0, origin.frameAt(offset), annotated(layer, offset, 0)));
        errors++;
    }

    private Layer annotated(Layer layer, long offset, long length) {
        origin.annotate(layer, offset, length);
        return layer;
    }

    private String incompleteFrame() {
        if (length < MpaFrame.HEADER_LENGTH) {
            return length + " of the 20 header octets present";
        }
        int pdLength = bytes.getUnsignedShort(MpaFrameCodec.PD_LENGTH_OFFSET);
        return length + " of 20 + PD_Length " + pdLength + " = " + (20 + pdLength) + " octets present";
    }

    static String name(MpaFrameType type) {
        return type == MpaFrameType.REQUEST ? "Request" : "Reply";
    }
}
