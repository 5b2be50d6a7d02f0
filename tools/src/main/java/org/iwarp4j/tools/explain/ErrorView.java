package org.iwarp4j.tools.explain;

import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/** An error entry: what the decoder reported, with its MPA error code, or a hole in a capture. */
final class ErrorView {

    private ErrorView() {}

    /** An MPA error (Terminate Layer 0x2 / Error Type 0x0 / Code, RFC 5044 §8). */
    static Layer mpa(MpaError error, String message, long offset, Origin origin, String consequence) {
        Layer l = new Layer(String.format("ERROR  MPA 0x%02x %s  %s", error.code(), error.description(),
                origin.where(offset, 0)), null)
                .json("type", Json.str("error"))
                .json("offset", Json.num(offset))
                .json("layer", Json.str("MPA"))
                .json("code", Json.num(error.code()))
                .json("message", Json.str(message));
        l.row("Layer", "MPA", "RFC 5040 §4.8", "Terminate Layer 0x2 (LLP), Error Type 0x0");
        l.row("Code", String.format("0x%02x", error.code()), Rfc.MPA_ERRORS, error.description());
        l.row("Found", message, "", "");
        if (consequence != null) {
            l.note(consequence);
        }
        return l;
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
