package org.iwarp4j.rdmap.terminate;

import org.iwarp4j.rdmap.wire.ReadRequestHeader;
import org.iwarp4j.rdmap.wire.TerminateHeader;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The contents of one Terminate message (RFC 5040 §4.8): the one we send, or one we received.
 *
 * <p>Layer/EType/Code are kept as raw values so that a received Terminate with an undefined triple is
 * still reported faithfully; {@link #cause()} maps them to the registry. Absent optional fields are
 * {@code -1} / {@code null}. A Terminate built here always obeys the header rules of Figure 10 (see
 * {@link #forIncomingMessage}); a decoded one may not, and {@link #notes()} says what was odd about it.
 *
 * @param layer                raw Layer (4 bits)
 * @param errorType            raw EType (4 bits)
 * @param errorCode            raw Error Code (8 bits)
 * @param m                    M: the DDP Segment Length is valid
 * @param d                    D: the Terminated DDP Header (and the length field) is present
 * @param r                    R: the Terminated RDMA Header is present
 * @param ddpSegmentLength     the DDP Segment Length field, or -1 if absent. RFC: the ULPDU length of the
 *                             offending segment. Linux siw writes the segment's payload length instead,
 *                             so treat a received value as informational.
 * @param terminatedDdpHeader  the copied 14/18-octet DDP header (control octets included), or {@code null}
 * @param terminatedRdmaHeader the copied 28-octet Read Request header, or {@code null}
 * @param layout               the control word layout (always {@link TerminateLayout#RFC} for ours)
 * @param notes                anomalies found while decoding (empty for a well-formed Terminate)
 */
public record Terminate(int layer, int errorType, int errorCode, boolean m, boolean d, boolean r,
                        int ddpSegmentLength, byte[] terminatedDdpHeader, byte[] terminatedRdmaHeader,
                        TerminateLayout layout, String notes) {

    public Terminate {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(notes, "notes");
    }

    /**
     * A Terminate that carries no copied header: local errors, errors while building an outbound
     * message, LLP errors (RFC 5040 §7.1 case 1, Fig 10).
     */
    public static Terminate of(TerminateCause cause) {
        return new Terminate(cause.layer().value(), cause.errorType().value(), cause.code(), false, false, false,
                -1, null, null, TerminateLayout.RFC, "");
    }

    /**
     * The Terminate for an error caused by an incoming message (RFC 5040 §7.1 cases 2/3, RFC 7306
     * §8.1), with headers per Figure 10: the DDP Segment Length and the offending DDP header when the
     * error type copies it (M=D=1), and the Read Request header only for a Remote Protection error on a
     * Read Request (R=1).
     *
     * @param ddpSegmentLength  the ULPDU length of the offending segment
     * @param ddpHeader         its complete 14/18-octet DDP header, or {@code null} if not available
     * @param readRequestHeader the (progress-adjusted, [RDMAP-11]) Read Request header when the
     *                          offending message was a Read Request, else {@code null}
     */
    public static Terminate forIncomingMessage(TerminateCause cause, int ddpSegmentLength, byte[] ddpHeader,
                                               byte[] readRequestHeader) {
        boolean withDdp = cause.errorType().copiesDdpHeader() && ddpHeader != null;
        boolean withRdma = cause.errorType().copiesReadRequestHeader() && readRequestHeader != null;
        if (withDdp && ddpHeader.length != TerminateHeader.ddpHeaderLength(ddpHeader[0])) {
            throw new IllegalArgumentException("copied DDP header must be 14 (T=1) or 18 (T=0) octets, got "
                    + ddpHeader.length);
        }
        if (withRdma && readRequestHeader.length != ReadRequestHeader.LENGTH) {
            throw new IllegalArgumentException("copied RDMA header must be 28 octets");
        }
        return new Terminate(cause.layer().value(), cause.errorType().value(), cause.code(), withDdp, withDdp,
                withRdma, withDdp ? ddpSegmentLength & 0xFFFF : -1, withDdp ? ddpHeader.clone() : null,
                withRdma ? readRequestHeader.clone() : null, TerminateLayout.RFC, "");
    }

    /** The registered cause for this Layer/EType/Code, or {@code null} if the triple is undefined. */
    public TerminateCause cause() {
        return TerminateCause.of(layer, errorType, errorCode);
    }

    /** Octets of the Terminate header when encoded by {@link TerminateEncoder} (RFC layout). */
    public int encodedLength() {
        int length = TerminateHeader.CONTROL_LENGTH;
        if (d) {
            length += 2 + (terminatedDdpHeader == null ? 0 : terminatedDdpHeader.length);
        }
        if (r && terminatedRdmaHeader != null) {
            length += terminatedRdmaHeader.length;
        }
        return length;
    }

    /** The triple and meaning, e.g. {@code 0x0/0x1/0x00 RDMA Remote Protection Error: Invalid STag}. */
    public String describe() {
        TerminateCause cause = cause();
        return cause != null ? cause.toString()
                : TerminateCause.triple(layer, errorType, errorCode) + " (undefined)";
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(describe());
        sb.append(m ? " M" : "").append(d ? " D" : "").append(r ? " R" : "");
        if (ddpSegmentLength >= 0) {
            sb.append(" ddpSegmentLength=").append(ddpSegmentLength);
        }
        if (terminatedDdpHeader != null) {
            sb.append(" ddpHeader=").append(HexFormat.of().formatHex(terminatedDdpHeader));
        }
        if (terminatedRdmaHeader != null) {
            sb.append(" rdmaHeader=").append(HexFormat.of().formatHex(terminatedRdmaHeader));
        }
        if (layout != TerminateLayout.RFC) {
            sb.append(" layout=").append(layout);
        }
        if (!notes.isEmpty()) {
            sb.append(" (").append(notes).append(')');
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Terminate t && layer == t.layer && errorType == t.errorType
                && errorCode == t.errorCode && m == t.m && d == t.d && r == t.r
                && ddpSegmentLength == t.ddpSegmentLength
                && Arrays.equals(terminatedDdpHeader, t.terminatedDdpHeader)
                && Arrays.equals(terminatedRdmaHeader, t.terminatedRdmaHeader)
                && layout == t.layout && notes.equals(t.notes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(layer, errorType, errorCode, m, d, r, ddpSegmentLength,
                Arrays.hashCode(terminatedDdpHeader), Arrays.hashCode(terminatedRdmaHeader), layout, notes);
    }
}
