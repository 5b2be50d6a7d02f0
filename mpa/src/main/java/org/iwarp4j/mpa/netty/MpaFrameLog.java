package org.iwarp4j.mpa.netty;

import org.iwarp4j.mpa.fpdu.FpduLayout;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MPA frame log: one human-readable line per MPA Request/Reply and per FPDU, in ({@code <<}) and
 * out ({@code >>}), on its own slf4j logger {@value #LOGGER_NAME} at DEBUG. Cheap when disabled:
 * callers test {@link #enabled()} first and no string is built.
 *
 * <pre>
 * >> MPA Request Rev=2 M=0 C=1 R=0 S=1 Res=0x0 PD_Length=4 [A=0 B=0 IRD=16 C=0 D=0 ORD=16]
 * << FPDU so=0x00000000 ULPDU_Length=42 PAD=0 CRC=0x83992352 ok markers=1 wire=52
 * </pre>
 */
public final class MpaFrameLog {

    /** Name of the frame logger. */
    public static final String LOGGER_NAME = "org.iwarp4j.frames.mpa";

    static final Logger LOG = LoggerFactory.getLogger(LOGGER_NAME);

    private MpaFrameLog() {}

    /** Whether the frame log is on. */
    public static boolean enabled() {
        return LOG.isDebugEnabled();
    }

    static void frame(String channel, boolean outbound, MpaFrame frame) {
        LOG.debug("{} {} {}", channel, outbound ? ">>" : "<<", frame);
    }

    static void outbound(String channel, FpduWriter w) {
        LOG.debug("{} >> FPDU so=0x{} ULPDU_Length={} PAD={} CRC=0x{}{} markers={} wire={}", channel,
                hex8(w.lastStreamOffset()), w.lastUlpduLength(), pad(w.lastUlpduLength()), hex8((int) w.lastCrc()),
                w.crcEnabled() ? "" : " (CRC off)", w.lastMarkerCount(), w.lastWireLength());
    }

    static void inbound(String channel, FpduReader r) {
        LOG.debug("{} << FPDU so=0x{} ULPDU_Length={} PAD={} CRC=0x{} {} markers={} wire={}", channel,
                hex8(r.streamOffset() - r.lastWireLength()), r.lastUlpduLength(), pad(r.lastUlpduLength()),
                hex8((int) r.lastCrcField()), r.crcEnabled() ? "ok" : "unchecked", r.lastMarkerCount(),
                r.lastWireLength());
    }

    static void error(String channel, Throwable t) {
        LOG.debug("{} << ERROR {}", channel, t.getMessage());
    }

    private static int pad(int ulpduLength) {
        return FpduLayout.padLength(ulpduLength);
    }

    private static String hex8(int v) {
        String s = Integer.toHexString(v);
        return "00000000".substring(s.length()) + s;
    }
}
