package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.iwarp4j.rdmap.terminate.TerminateDecoder;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/**
 * Decodes DDP and RDMAP inside every FPDU entry, in conversation order: adds the {@code ddp} and
 * {@code rdmap} layers, an error entry after each segment a receiver would answer with a Terminate
 * ({@link SegmentCheck}), and the {@link MessageTracker} findings — warnings as the FPDU's JSON
 * {@code notes}, explanations for people.
 *
 * <p>After the first Terminate-worthy segment of a direction the receiver places nothing more of it
 * (RFC 5041 §7.1): later FPDUs are decoded for analysis, with a note, and not checked. FPDUs that MPA
 * did not deliver (bad CRC, after an MPA error) likewise.
 */
final class UpperLayers {

    /**
     * How to read the entries.
     *
     * @param preferred  the Terminate layout that wins a tie ({@code --terminate-layout})
     * @param firstPhase what the receiver of the first FPDU of the input knows ({@link TerminateDecoder.Phase});
     *                   every later FPDU comes after something was sent or received
     * @param knownStart every direction is decoded from its first FPDU on (after its MPA frame)
     * @param pairs      both directions are present (a capture): responses are matched with requests
     */
    record Settings(TerminateLayout preferred, TerminateDecoder.Phase firstPhase, boolean knownStart, boolean pairs) {}

    /** The entries with the error entries added, and how many errors were added. */
    record Result(List<Entry> entries, int errors) {}

    private final Settings settings;
    private final MessageTracker tracker;
    private final Map<Origin, String> stopped = new HashMap<>();
    private int errors;
    private boolean anyBefore;
    private boolean rfc7306Noted;

    /** Reads entries one at a time, in conversation order, with {@link #add}. */
    UpperLayers(Settings settings) {
        this.settings = settings;
        this.tracker = new MessageTracker(settings.knownStart(), settings.pairs());
    }

    static Result explain(List<Entry> entries, Settings settings) {
        UpperLayers upper = new UpperLayers(settings);
        List<Entry> out = new ArrayList<>(entries.size());
        entries.forEach(e -> upper.add(e, out::add));
        return new Result(out, upper.errors());
    }

    /** Error entries added so far. */
    int errors() {
        return errors;
    }

    /**
     * Hands {@code e} to {@code out}, an FPDU's with its upper layers decoded, then the error entry its segment
     * raises, if any. Keeps only what the sequence rules need of earlier entries, never the entries.
     */
    void add(Entry e, Consumer<Entry> out) {
        Entry.Segment s = e.fpdu();
        if (s == null) {
            out.accept(e);
            return;
        }
        Entry error = decode(e, s);
        out.accept(e);
        if (error != null) {
            out.accept(error);
        }
    }

    private Entry decode(Entry e, Entry.Segment s) {
        TerminateDecoder.Phase phase = anyBefore ? TerminateDecoder.Phase.RUNNING : settings.firstPhase();
        anyBefore = true;
        ByteBuf segment = s.ulpdu().duplicate();
        DdpFields f = DdpFields.read(segment, segment.readerIndex(), segment.readableBytes());
        Layer ddp = DdpView.segment(f);
        RdmapView.Decoded rdmap =
                RdmapView.segment(f, segment, new TerminateView.Context(settings.preferred(), phase));
        if (rdmap != null) {
            ddp.childBeside(rdmap.layer());
            if (!rfc7306Noted && f instanceof DdpFields.Untagged && RdmapControl.opcode(f.rdmapControl()) != null
                    && RdmapControl.opcode(f.rdmapControl()).isRfc7306()) {
                rfc7306Noted = true; // once per input or connection
                rdmap.layer()
                        .note("RFC 7306: a receiver without the extensions (Linux siw) answers opcodes 0x8-0xB "
                                + "with Terminate 0x0/0x2/0x06 (" + Rfc.SIW_FINDINGS + " F2).");
            }
        }
        e.layer().child(ddp);
        List<Json> notes = new ArrayList<>();
        Entry errorEntry = null;
        if (!s.delivered()) {
            ddp.note("Not handed to DDP: MPA rejected this FPDU or an earlier one of its direction; "
                    + "decoded for analysis only, nothing checked.");
        } else if (stopped.containsKey(s.origin())) {
            String text = "not placed: the receiver stopped at the error at " + stopped.get(s.origin())
                    + " and drops the rest of this direction (" + Rfc.DDP_ERRORS + "); decoded for analysis only";
            ddp.note("note: " + text);
            notes.add(note("DDP", Rfc.DDP_ERRORS, text));
        } else {
            SegmentCheck.Violation v = SegmentCheck.check(f, segment);
            if (v != null) {
                stopped.put(s.origin(), s.origin().ref(e.offset()));
                Layer error = ErrorView.terminate(v, e.offset(), s.origin(),
                        "A receiver answers with this Terminate, places nothing of this segment and drops the rest "
                        + "of this direction (" + Rfc.DDP_ERRORS + ", " + Rfc.RDMAP_ERROR_HANDLING + ").");
                s.origin().annotate(error, e.offset(), 0);
                errorEntry = new Entry(Entry.Kind.ERROR, e.offset(), 0, e.frame(), error);
                errors++;
            } else {
                List<MessageTracker.Finding> findings =
                        new ArrayList<>(tracker.segment(s.origin(), e.offset(), f, segment));
                if (rdmap != null && rdmap.terminate() != null && f instanceof DdpFields.Untagged u) {
                    findings.addAll(tracker.terminate(s.origin(), e.offset(), u, rdmap.terminate().terminate()));
                }
                for (MessageTracker.Finding finding : findings) {
                    Layer target = finding.layer().equals("RDMAP") && rdmap != null ? rdmap.layer() : ddp;
                    if (finding.warning()) {
                        target.note("warning: " + finding.text() + " (" + finding.rfc() + ")");
                        notes.add(note(finding.layer(), finding.rfc(), finding.text()));
                    } else {
                        target.note(finding.text() + " (" + finding.rfc() + ").");
                    }
                }
            }
        }
        e.layer().json("notes", Json.arr(notes));
        return errorEntry;
    }

    private static Json note(String layer, String rfc, String text) {
        return Json.obj("layer", Json.str(layer), "rfc", Json.str(rfc), "text", Json.str(text));
    }
}
