package org.iwarp4j.tools.explain;

import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.terminate.TerminateLayer;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/**
 * An error entry: what the decoder reported, with the Terminate a receiver answers it with (MPA, DDP or
 * RDMAP Layer / Error Type / Error Code, JSON {@code "terminate": {"layer", "etype", "code"}}), or a hole
 * in a capture.
 */
final class ErrorView {

    private ErrorView() {}

    /** An MPA error (Terminate Layer 0x2 / Error Type 0x0 / Code, RFC 5044 §8). */
    static Layer mpa(MpaError error, String message, long offset, Origin origin, String consequence) {
        Layer l = new Layer("ERROR  MPA " + Values.hex(error.code(), 2) + " " + error.description() + "  "
                + origin.where(offset, 0), null)
                .json("type", Json.str("error"))
                .json("offset", Json.num(offset))
                .json("layer", Json.str("MPA"))
                .json("code", Json.num(error.code()))
                .json("message", Json.str(message))
                .json("terminate", triple(TerminateLayer.LLP.value(), 0, error.code(), null));
        l.row("Layer", "MPA", "RFC 5040 §4.8", "Terminate Layer 0x2 (LLP), Error Type 0x0");
        l.row("Code", Values.hex(error.code(), 2), Rfc.MPA_ERRORS, error.description());
        l.row("Found", message, "", "");
        if (consequence != null) {
            l.note(consequence);
        }
        return l;
    }

    /**
     * A DDP or RDMAP header a receiver answers with a Terminate ({@link SegmentCheck}); the entry sits
     * right after the FPDU, at its offset.
     */
    static Layer terminate(SegmentCheck.Violation v, long offset, Origin origin, String consequence) {
        TerminateCause c = v.cause();
        String layer = c.layer() == TerminateLayer.DDP ? "DDP" : "RDMAP";
        Layer l = new Layer("ERROR  " + layer + " " + c.triple() + " " + c.description() + "  "
                + origin.where(offset, 0), null)
                .json("type", Json.str("error"))
                .json("offset", Json.num(offset))
                .json("layer", Json.str(layer))
                .json("code", Json.num(c.code()))
                .json("message", Json.str(v.found()))
                .json("terminate", triple(c.layer().value(), c.errorType().value(), c.code(), c));
        l.row("Terminate", c.triple(), c.layer() == TerminateLayer.DDP ? Rfc.DDP_ERROR_CODES
                : Rfc.RDMAP_TERMINATE,
                c.layer().displayName() + " " + c.errorType().displayName() + ": " + c.description());
        l.row("Found", v.found(), v.rfc(), "");
        if (consequence != null) {
            l.note(consequence);
        }
        return l;
    }

    private static Json triple(int layer, int etype, int code, TerminateCause cause) {
        TerminateCause c = cause != null ? cause : TerminateCause.of(layer, etype, code);
        return Json.obj("layer", Json.num(layer), "etype", Json.num(etype), "code", Json.num(code),
                "cause", c == null ? Json.Null.NULL : Json.str(c.toString()));
    }

    /** A problem with the capture itself (not a protocol error): it has no MPA code. */
    static Layer capture(String message, long offset, Origin origin) {
        Layer l = new Layer("ERROR  capture  " + origin.where(offset, 0), null)
                .json("type", Json.str("error"))
                .json("offset", Json.num(offset))
                .json("layer", Json.str("TCP"))
                .json("code", Json.Null.NULL)
                .json("message", Json.str(message));
        l.row("Layer", "TCP", "", "the capture, not the protocol: no MPA error code");
        l.row("Found", message, "", "");
        return l;
    }
}
