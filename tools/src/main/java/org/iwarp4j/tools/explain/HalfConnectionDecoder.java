package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.fpdu.DissectedFpdu;
import org.iwarp4j.mpa.fpdu.DissectionError;
import org.iwarp4j.mpa.fpdu.FpduDissection;
import org.iwarp4j.mpa.fpdu.FpduDissector;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.tools.report.Layer;

/**
 * Decodes the octets of one direction with the mpa module's own decoders: an MPA Request or Reply
 * ({@link MpaFrameCodec}), then FPDUs ({@link FpduDissector}), collecting one {@link Entry} per
 * frame and per error.
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

    private final byte[] bytes;
    private final Origin origin;
    private final List<Entry> entries = new ArrayList<>();
    private int errors;
    private boolean truncatedAtEnd;

    HalfConnectionDecoder(byte[] bytes, Origin origin) {
        this.bytes = bytes;
        this.origin = origin;
    }

    int length() {
        return bytes.length;
    }

    /** The entries in stream order (an error after the frame it concerns). */
    List<Entry> entries() {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparingLong(Entry::offset)); // stable
        return sorted;
    }

    int errors() {
        return errors;
    }

    /**
     * Parses the MPA Request or Reply at offset 0.
     *
     * @param expected the frame this side must send, or {@code null} when either is fine
     */
    Startup startupFrame(MpaFrameType expected) {
        if (bytes.length == 0) {
            return new Absent();
        }
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
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
                    bytes.length, null);
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
        return !entries.isEmpty() && entries.get(0).kind() == Entry.Kind.ERROR && entries.get(0).offset() == 0
                && bytes.length > 0 && bytes[0] != MpaFrameType.REQUEST.keyOctet(0);
    }

    /** Dissects the octets from {@code from} to the end as FPDUs. */
    void fpdus(int from, boolean crc, boolean markers, long streamOffset) {
        FpduDissection dissection = new FpduDissector(crc, markers, (int) streamOffset)
                .dissect(Unpooled.wrappedBuffer(bytes, from, bytes.length - from));
        boolean failed = false;
        for (DissectedFpdu d : dissection.fpdus()) {
            long offset = from + (long) d.inputOffset();
            Layer layer = FpduView.of(d, offset, markers, origin);
            if (failed) {
                layer.note("Not delivered: it follows an MPA error in this half connection (" + Rfc.MPA_ERRORS + ").");
            }
            entries.add(new Entry(Entry.Kind.FPDU, offset, d.wireLength(), origin.frameAt(offset),
                    annotated(layer, offset, d.wireLength()),
                    new Entry.Segment(d.ulpdu(), !failed && d.error() == null, origin)));
            if (d.error() != null) {
                dissectionError(d.error(), from, failed ? null : NOTHING_MORE);
                failed = true;
            }
        }
        DissectionError stop = dissection.error();
        if (stop != null) {
            truncatedAtEnd = stop.error() == MpaError.TCP_CONNECTION_LOST;
            dissectionError(stop, from, stop.error() == MpaError.TCP_CONNECTION_LOST ? null
                    : "The FPDU boundary is lost: nothing after this point can be decoded.");
        }
    }

    /**
     * Reports the hole that ends a captured stream; an "input ends inside a frame" error just before
     * it is the hole's doing and is replaced by it.
     */
    void captureEndsAtHole(String message) {
        if (truncatedAtEnd) {
            Entry last = entries.remove(entries.size() - 1);
            if (last.kind() == Entry.Kind.ERROR) {
                errors--;
            }
        }
        Layer layer = ErrorView.capture(message, bytes.length, origin);
        entries.add(new Entry(Entry.Kind.ERROR, bytes.length, 0, origin.frameAt(bytes.length),
                annotated(layer, bytes.length, 0)));
        errors++;
    }

    /** Reports a problem with the capture at {@code offset} that does not stop decoding. */
    void captureProblem(String message, long offset) {
        Layer layer = ErrorView.capture(message, offset, origin);
        entries.add(new Entry(Entry.Kind.ERROR, offset, 0, origin.frameAt(offset), annotated(layer, offset, 0)));
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
        if (bytes.length < MpaFrame.HEADER_LENGTH) {
            return bytes.length + " of the 20 header octets present";
        }
        int pdLength = (bytes[MpaFrameCodec.PD_LENGTH_OFFSET] & 0xff) << 8
                | (bytes[MpaFrameCodec.PD_LENGTH_OFFSET + 1] & 0xff);
        return bytes.length + " of 20 + PD_Length " + pdLength + " = " + (20 + pdLength) + " octets present";
    }

    static String name(MpaFrameType type) {
        return type == MpaFrameType.REQUEST ? "Request" : "Reply";
    }
}
