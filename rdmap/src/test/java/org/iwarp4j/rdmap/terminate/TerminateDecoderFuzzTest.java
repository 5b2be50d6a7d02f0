package org.iwarp4j.rdmap.terminate;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.iwarp4j.testkit.fuzz.LeakCheckingAllocator;

/**
 * The lenient Terminate decoder (RFC 5040 §4.8) on any octets, either layout preference, every phase.
 * It promises never to throw; what must also hold: its defensive catch-all never fires (that would be
 * a bug hidden as "undecodable"), the result describes itself without failing, a Terminate read
 * without notes re-encodes to the octets it was read from, and a re-encoded Terminate decodes back to
 * the same one (in the layout it was read in).
 */
class TerminateDecoderFuzzTest {

    private static final LeakCheckingAllocator ALLOC = new LeakCheckingAllocator();
    private static final TerminateDecoder.Phase[] PHASES = TerminateDecoder.Phase.values();
    private static final TerminateLayout[] LAYOUTS = TerminateLayout.values();

    @FuzzTest
    void decode(FuzzedDataProvider data) {
        TerminateLayout preferred = LAYOUTS[data.consumeInt(0, LAYOUTS.length - 1)];
        TerminateDecoder.Phase phase = PHASES[data.consumeInt(0, PHASES.length - 1)];
        int claimed = data.consumeInt(-2, 80); // the caller's length may exceed what is there
        byte[] octets = data.consumeRemainingAsBytes();
        ByteBuf in = ALLOC.buffer(octets.length).writeBytes(octets);
        try {
            int length = claimed < 0 ? octets.length : claimed;
            Terminate t = TerminateDecoder.decode(in, 0, length, preferred, phase);
            if (t.notes().startsWith("undecodable")) {
                throw new AssertionError("the decoder's catch-all fired: " + t.notes());
            }
            if (t.describe().isEmpty() || t.toString().isEmpty()) {
                throw new AssertionError("no description");
            }
            if (t.layout() == TerminateLayout.RFC) {
                checkRoundTrip(t, in, Math.min(length, octets.length), preferred, phase);
            }
        } finally {
            in.release();
        }
        ALLOC.assertNoLeaks();
    }

    private static void checkRoundTrip(Terminate t, ByteBuf in, int length, TerminateLayout preferred,
                                       TerminateDecoder.Phase phase) {
        ByteBuf out = ALLOC.buffer(t.encodedLength());
        try {
            int written = TerminateEncoder.encode(t, out);
            if (written != t.encodedLength()) {
                throw new AssertionError("encoded " + written + " octets, encodedLength " + t.encodedLength());
            }
            Terminate again = TerminateDecoder.decode(out, 0, written, preferred, phase);
            if (!again.equals(t) && again.notes().isEmpty() && t.notes().isEmpty()) {
                throw new AssertionError("re-decoded " + again + " from " + t);
            }
            if (t.notes().isEmpty() && written == length
                    && !ByteBufUtil.equals(in, 0, out, 0, written)) {
                throw new AssertionError("a Terminate without notes re-encodes differently: " + t);
            }
        } finally {
            out.release();
        }
    }
}
