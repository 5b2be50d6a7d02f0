package org.iwarp4j.tools.conformance;

import java.util.Map;

/**
 * A peer profile: the deviations from the RFCs a stack is known to have, each with where it is documented, so
 * that a run against that stack reports them as "known" instead of failing. A failed check becomes known only
 * when every problem it found is one of them.
 */
enum Profile {
    /** No deviation is known: every problem fails its check. */
    STRICT(Map.of()),
    /** Linux soft-iWARP (siw), as measured in the lab (docs/interop.md, findings F and R). */
    SIW(Map.ofEntries(
            Map.entry("mirrored-control-word", "F1/R12: siw writes the Terminate control word bit-mirrored "
                    + "(little-endian C bitfields)"),
            Map.entry("segment-length-is-payload", "F2/R5: siw's DDP Segment Length is the payload length"),
            Map.entry("no-header-copied", "F2/R4: siw copies no header for version and opcode errors"),
            Map.entry("copied-msn-differs", "F2: in Read Request protection errors siw rebuilds the DDP header with "
                    + "the read size in the MSN field"),
            Map.entry("too-long-as-no-buffer", "F2/R2: siw reports a Send longer than its buffer as 0x1/0x2/0x02"),
            Map.entry("reply-echoes-reserved-bits", "M2: siw's Reply copies the Request's reserved bits"),
            Map.entry("ird-ord-3fff-clamped", "M5/R6: siw clamps IRD/ORD 0x3FFF to 128"),
            Map.entry("private-data-limit-256", "M9: siw takes at most 256 octets of private data and resets"),
            Map.entry("responder-sends-first", "M14/R8: a siw Responder sends first when its application does"),
            Map.entry("terminate-crc-zero", "M17/R15: siw's setup Terminate carries a CRC field of zero"),
            Map.entry("request-without-crc", "M1: siw asks for CRCs only with mpa_crc_required=Y"),
            Map.entry("no-markers", "M8: siw does not do markers and closes"),
            Map.entry("rtr-not-offered", "M6/R13: siw answers a Send RTR offer with a Write RTR"),
            Map.entry("close-without-terminate", "F5: siw drops its Terminate when its transmitter is busy"),
            Map.entry("accepts-rev-0", "M22: siw accepts a Request with Rev 0 and answers Rev 0"),
            Map.entry("terminates-bad-first-fpdu", "F2 (i): siw answers a first FPDU with a bad CRC with "
                    + "Terminate 0x2/0x0/0x02"),
            Map.entry("split-fpdu-crc-error", "C9: siw reports a CRC error for an FPDU whose trailer or header "
                    + "arrives in pieces"),
            Map.entry("short-segment-stalls", "C10: siw neither Terminates nor closes for an FPDU too short for a "
                    + "DDP header: it waits for more octets"),
            Map.entry("local-catastrophic", "F8: siw reports a wrapping TO and an unexpected Read Response as "
                    + "DDP Local Catastrophic 0x1/0x0/0x00"),
            Map.entry("opcode-decides-layout", "F10: siw takes the header layout and queue from the RDMAP opcode, "
                    + "not from the T bit and QN"),
            Map.entry("terminates-bad-reply", "M24: siw as Initiator answers a Reply with the Request key with a "
                    + "Terminate 0x2/0x0/0x04 before it closes"),
            Map.entry("reply-private-data-hangs", "M25: siw as Initiator neither answers nor closes on a Reply with "
                    + "more than 256 octets of private data; its application hangs"),
            Map.entry("zero-read-answered-with-data", "C11: siw now and then answers a zero-length Read Request with "
                    + "a Read Response carrying 16 stale octets"),
            Map.entry("answers-bad-version-terminate", "F11: siw answers a Terminate with RDMAP version 0 with its "
                    + "own Terminate")));

    private final Map<String, String> known;

    Profile(Map<String, String> known) {
        this.known = known;
    }

    /** Where the deviation is documented, or null if this profile does not know it. */
    String finding(String deviation) {
        return deviation == null ? null : known.get(deviation);
    }

    /** {@code v} as this profile sees it: a failure all of whose problems are known deviations becomes KNOWN. */
    Verdict apply(Verdict v) {
        if (v.status() != Verdict.Status.FAILED || v.problems().isEmpty()) {
            return v;
        }
        for (Verdict.Problem p : v.problems()) {
            if (finding(p.deviation()) == null) {
                return v;
            }
        }
        return v.withStatus(Verdict.Status.KNOWN);
    }
}
