package org.iwarp4j.rdmap.terminate;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.rdmap.wire.ReadRequestHeader;
import org.iwarp4j.rdmap.wire.TerminateHeader;

import java.util.ArrayList;
import java.util.List;

/**
 * Lenient parser of a received Terminate header (RFC 5040 §4.8). It never throws: whatever arrives is
 * turned into a {@link Terminate} that reports what could be read, and {@link Terminate#notes()} lists
 * what was wrong with it. Any Terminate is fatal for the stream anyway (RFC 5040 §5.4); the point is
 * to tell the user as faithfully as possible why the peer gave up.
 *
 * <h2>Two layouts of the control word</h2>
 * Linux siw sends the control word bit-mirrored ({@link TerminateLayout#SIW_MIRRORED}). Both readings
 * of the 4 octets are scored and the more plausible one wins:
 * <ul>
 *   <li>+4 the Layer/EType/Code triple is registered ({@link TerminateCause#of});</li>
 *   <li>+2 the Layer is 0..2;</li>
 *   <li>+2 the reserved bits are zero (receivers ignore them [RDMAP-08], but senders zero them, so set
 *       reserved bits are a strong sign of reading the word the wrong way round);</li>
 *   <li>+2 the octets after the control word are exactly what the M/D/R flags announce;</li>
 *   <li>+1 the flags agree with Figure 10 for the error type (DDP errors copy the DDP header, Local
 *       Catastrophic and LLP errors copy nothing).</li>
 * </ul>
 * <ul>
 *   <li>the RFC 6581 setup errors 0x2/0x0/0x05–0x07 are only ever sent as an initiator's first FPDU,
 *       before it received anything (RFC 6581 §9.1, §9.3): such a reading gets +1 in {@link Phase#SETUP}
 *       (nothing sent, nothing received yet) and −2 in {@link Phase#RUNNING}.</li>
 * </ul>
 * On a remaining tie the caller's {@code preferred} layout wins (default RFC) and the result is marked
 * ambiguous in its notes. Examples, all as captured from Linux siw (interop/FINDINGS.md F1, F2): the CRC
 * error {@code 02 02 00 00} reads as the undefined 0x0/0x2/0x02 in the RFC layout, so the mirrored
 * 0x2/0x0/0x02 wins; siw's "unexpected opcode" {@code 20 06 00 00} after our message is 0x0/0x2/0x06
 * (the RFC reading 0x2/0x0/0x06 is impossible then); siw's first-FPDU {@code 02 06 00 00} /
 * {@code 02 07 00 00} are 0x2/0x0/0x06 / 0x07; an RFC-layout initiator's first-FPDU {@code 20 06 00 00}
 * stays 0x2/0x0/0x06.
 *
 * <h2>siw's copied header</h2>
 * siw copies the offending header including MPA's 2-octet length field, which it first overwrites with
 * the segment's payload length; those two octets sit exactly where the RFC's DDP Segment Length is, so
 * the layout parses unchanged and only the value differs (kept as received). siw also sets R=1 for a
 * failed Send with Invalidate while copying only the 18-octet DDP header; then the RDMA header is
 * reported absent with a note.
 */
public final class TerminateDecoder {

    /** What the receiver knows about when the Terminate arrived. */
    public enum Phase {
        /** No context (e.g. a Terminate decoded on its own, out of a capture). */
        UNKNOWN,
        /** Nothing was sent or received on the stream before: it may be an RFC 6581 initiator's first FPDU. */
        SETUP,
        /** Something was sent or received before: it cannot be an RFC 6581 setup error. */
        RUNNING
    }

    private TerminateDecoder() {
    }

    /** Decodes with no layout preference beyond the RFC's. */
    public static Terminate decode(ByteBuf buffer, int index, int length) {
        return decode(buffer, index, length, TerminateLayout.RFC);
    }

    /**
     * Decodes the Terminate header at {@code buffer[index, index + length)}: the DDP payload of the
     * Terminate message (everything after its 18-octet untagged DDP header).
     *
     * @param preferred the layout that wins when both readings are equally plausible (e.g.
     *                  {@link TerminateLayout#SIW_MIRRORED} when the peer is known to be Linux siw)
     */
    public static Terminate decode(ByteBuf buffer, int index, int length, TerminateLayout preferred) {
        return decode(buffer, index, length, preferred, Phase.UNKNOWN);
    }

    /**
     * As {@link #decode(ByteBuf, int, int, TerminateLayout)}, with context.
     *
     * @param phase whether this Terminate may be an RFC 6581 initiator's first FPDU
     */
    public static Terminate decode(ByteBuf buffer, int index, int length, TerminateLayout preferred, Phase phase) {
        try {
            return decodeUnchecked(buffer, index, Math.max(0, Math.min(length, buffer.capacity() - index)),
                    preferred == null ? TerminateLayout.RFC : preferred, phase == null ? Phase.UNKNOWN : phase);
        } catch (RuntimeException e) {
            // Defensive: a Terminate must never crash the receiver, whatever layout a peer uses.
            return new Terminate(0, 0, 0, false, false, false, -1, null, null, TerminateLayout.RFC,
                    "undecodable Terminate: " + e);
        }
    }

    private static Terminate decodeUnchecked(ByteBuf buffer, int index, int length, TerminateLayout preferred,
                                             Phase phase) {
        if (length < TerminateHeader.CONTROL_LENGTH) {
            return new Terminate(0, 0, 0, false, false, false, -1, null, null, TerminateLayout.RFC,
                    "truncated: " + length + " octets, the Terminate Control needs 4");
        }
        int b0 = buffer.getUnsignedByte(index);
        int code = buffer.getUnsignedByte(index + 1);
        int b2 = buffer.getUnsignedByte(index + 2);
        int b3 = buffer.getUnsignedByte(index + 3);
        int bodyLength = length - TerminateHeader.CONTROL_LENGTH;
        int firstBodyOctet = bodyLength >= 3 ? buffer.getUnsignedByte(index + 6) : -1;

        Reading rfc = new Reading(TerminateLayout.RFC, b0 >>> 4, b0 & 0x0F, code,
                (b2 & 0x80) != 0, (b2 & 0x40) != 0, (b2 & 0x20) != 0, (b2 & 0x1F) == 0 && b3 == 0);
        Reading siw = new Reading(TerminateLayout.SIW_MIRRORED, b0 & 0x0F, b0 >>> 4, code,
                (b2 & 0x01) != 0, (b2 & 0x02) != 0, (b2 & 0x04) != 0, (b2 & 0xF8) == 0 && b3 == 0);
        int rfcScore = rfc.score(bodyLength, firstBodyOctet, phase);
        int siwScore = siw.score(bodyLength, firstBodyOctet, phase);
        boolean sameMeaning = rfc.sameMeaning(siw);
        Reading chosen;
        List<String> notes = new ArrayList<>();
        if (rfcScore != siwScore) {
            chosen = rfcScore > siwScore ? rfc : siw;
        } else {
            chosen = preferred == TerminateLayout.SIW_MIRRORED ? siw : rfc;
            if (!sameMeaning) {
                Reading other = chosen == rfc ? siw : rfc;
                notes.add("ambiguous layout, also reads as " + other.describe() + " in layout " + other.layout);
            }
        }
        if (sameMeaning) {
            chosen = rfc; // both readings agree on every field: call it RFC
        }
        if (!chosen.reservedZero) {
            notes.add("reserved bits set");
        }

        int pos = index + TerminateHeader.CONTROL_LENGTH;
        int end = index + length;
        int segmentLength = -1;
        byte[] ddpHeader = null;
        byte[] rdmaHeader = null;
        if (chosen.d) {
            if (end - pos >= 2) {
                segmentLength = buffer.getUnsignedShort(pos);
                pos += 2;
            } else {
                notes.add("D=1 but no DDP Segment Length");
                pos = end;
            }
            if (end > pos) {
                int headerLength = TerminateHeader.ddpHeaderLength(buffer.getUnsignedByte(pos));
                int available = Math.min(headerLength, end - pos);
                ddpHeader = new byte[available];
                buffer.getBytes(pos, ddpHeader);
                pos += available;
                if (available < headerLength) {
                    notes.add("Terminated DDP Header truncated to " + available + " of " + headerLength + " octets");
                }
            } else {
                notes.add("D=1 but no Terminated DDP Header");
            }
        } else if (chosen.m) {
            notes.add("M=1 without D=1 (no length field present)");
        }
        if (chosen.r) {
            if (end - pos >= ReadRequestHeader.LENGTH) {
                rdmaHeader = new byte[ReadRequestHeader.LENGTH];
                buffer.getBytes(pos, rdmaHeader);
                pos += ReadRequestHeader.LENGTH;
            } else {
                notes.add("R=1 but only " + (end - pos) + " octets left for the 28-octet Terminated RDMA Header");
                pos = end;
            }
        }
        if (end > pos) {
            notes.add((end - pos) + " unexpected trailing octets");
        }
        return new Terminate(chosen.layer, chosen.errorType, chosen.code, chosen.m, chosen.d, chosen.r,
                segmentLength, ddpHeader, rdmaHeader, chosen.layout, String.join("; ", notes));
    }

    /** One interpretation of the control word. */
    private record Reading(TerminateLayout layout, int layer, int errorType, int code, boolean m, boolean d,
                           boolean r, boolean reservedZero) {

        int score(int bodyLength, int firstBodyOctet, Phase phase) {
            TerminateCause cause = TerminateCause.of(layer, errorType, code);
            int score = 0;
            if (cause != null) {
                score += 4;
            }
            if (TerminateLayer.fromValue(layer) != null) {
                score += 2;
            }
            if (reservedZero) {
                score += 2;
            }
            if (bodyLength == expectedBodyLength(firstBodyOctet)) {
                score += 2;
            }
            if (cause != null && flagsAgreeWithFigure10(cause.errorType())) {
                score += 1;
            }
            if (cause != null && cause.errorType() == TerminateErrorType.MPA && code >= 0x05) {
                score += phase == Phase.SETUP ? 1 : phase == Phase.RUNNING ? -2 : 0;
            }
            return score;
        }

        private int expectedBodyLength(int firstBodyOctet) {
            int expected = 0;
            if (d) {
                expected += 2 + (firstBodyOctet < 0 ? TerminateHeader.UNTAGGED_DDP_HEADER_LENGTH
                        : TerminateHeader.ddpHeaderLength(firstBodyOctet));
            }
            if (r) {
                expected += ReadRequestHeader.LENGTH;
            }
            return expected;
        }

        private boolean flagsAgreeWithFigure10(TerminateErrorType type) {
            if (!type.copiesDdpHeader()) {
                return !m && !d && !r;
            }
            if (type.layer() == TerminateLayer.DDP && type != TerminateErrorType.DDP_LOCAL_CATASTROPHIC) {
                return d && !r;
            }
            return type.copiesReadRequestHeader() || !r;
        }

        boolean sameMeaning(Reading o) {
            return layer == o.layer && errorType == o.errorType && m == o.m && d == o.d && r == o.r;
        }

        String describe() {
            TerminateCause cause = TerminateCause.of(layer, errorType, code);
            return cause != null ? cause.triple() : TerminateCause.triple(layer, errorType, code);
        }
    }
}
