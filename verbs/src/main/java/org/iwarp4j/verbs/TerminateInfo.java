package org.iwarp4j.verbs;

import java.util.Locale;
import java.util.Objects;

/**
 * A Terminate message (RFC 5040 §4.8) that explains a completion, an async event or a disconnect, and
 * which way it went. Layer, error type and error code are the fields of RFC 5040 §4.8, their values those
 * RFC 5040 §4.8 lists for RDMAP, RFC 5041 §7 for DDP and RFC 5044 §8 for MPA (e.g. {@code 0x1/0x2/0x02}: DDP
 * untagged buffer error, no receive posted).
 *
 * @param direction   whether this side sent it or received it
 * @param layer       0x0 RDMAP, 0x1 DDP, 0x2 LLP (MPA)
 * @param errorType   error type within the layer
 * @param errorCode   error code
 * @param description what the codes mean, e.g. {@code DDP Untagged Buffer Error: Invalid MSN - no buffer available}
 * @param m           the M bit: the DDP Segment Length field is valid
 * @param d           the D bit: the DDP header of the terminated segment is copied ({@code ddpHeader})
 * @param r           the R bit: the RDMAP header of a Read/Atomic Request is copied ({@code rdmapHeader})
 * @param ddpHeader   the copied DDP header, empty without D
 * @param rdmapHeader the copied RDMAP header, empty without R
 */
public record TerminateInfo(Direction direction, int layer, int errorType, int errorCode, String description,
                            boolean m, boolean d, boolean r, byte[] ddpHeader, byte[] rdmapHeader) {

    /** Which side sent the Terminate. */
    public enum Direction {
        /** This side detected the error and sent the Terminate. */
        SENT,
        /**
         * This side detected the error but could not send the Terminate: an MPA Responder sends nothing before it
         * received a valid FPDU from the Initiator (RFC 5044 §7.1.2 rule 4), so it closed the connection instead.
         */
        WITHHELD,
        /** The peer sent it. */
        RECEIVED
    }

    /** Checks the components. */
    public TerminateInfo {
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(description, "description");
        ddpHeader = ddpHeader.clone();
        rdmapHeader = rdmapHeader.clone();
        if (layer < 0 || layer > 0xF || errorType < 0 || errorType > 0xF || errorCode < 0 || errorCode > 0xFF) {
            throw new IllegalArgumentException("layer and error type are 4 bits, error code 8 bits");
        }
    }

    /**
     * The copied DDP header.
     *
     * @return a copy, empty without the D bit
     */
    @Override
    public byte[] ddpHeader() {
        return ddpHeader.clone();
    }

    /**
     * The copied RDMAP header.
     *
     * @return a copy, empty without the R bit
     */
    @Override
    public byte[] rdmapHeader() {
        return rdmapHeader.clone();
    }

    /**
     * The three numbers as RFC 5040 tables write them.
     *
     * @return e.g. {@code 0x1/0x2/0x05} (hexadecimal digits in upper case)
     */
    public String codes() {
        // %X/%X/%02X without String.format: every TerminateException and received Terminate asks for it.
        String code = upperHex(errorCode);
        return "0x" + upperHex(layer) + "/0x" + upperHex(errorType) + "/0x" + (code.length() < 2 ? "0" + code : code);
    }

    private static String upperHex(int value) {
        return Integer.toHexString(value).toUpperCase(Locale.ROOT);
    }

    /** E.g. {@code sent 0x1/0x2/0x05 DDP Untagged Buffer Error: DDP Message too long for available buffer}. */
    @Override
    public String toString() {
        String way = switch (direction) {
            case SENT -> "sent ";
            case WITHHELD -> "withheld (detected, not sent: RFC 5044 §7.1.2 rule 4) ";
            case RECEIVED -> "received ";
        };
        return way + codes() + " " + description;
    }
}
