package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.ddp.header.TaggedHeaderFlyweight;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;

/**
 * The header fields of one DDP segment (RFC 5041 §4), read with the ddp module's flyweights, plus the
 * octet RDMAP keeps in RsvdULP (its control field, RFC 5040 §4.1). A segment too short for its header
 * is {@link Incomplete} and holds only the octets that are there.
 */
sealed interface DdpFields permits DdpFields.Tagged, DdpFields.Untagged, DdpFields.Incomplete {

    /** Octets of the segment: DDP header + payload (MPA's ULPDU_Length). */
    int segmentLength();

    /** The DDP Control Field (octet 0), or -1 for an empty segment. */
    int control();

    /** RsvdULP octet 1, RDMAP's control field, or -1 if the segment is shorter than 2 octets. */
    int rdmapControl();

    /** 14 (tagged) or 18 (untagged), by the T bit. */
    default int headerLength() {
        return control() >= 0 && DdpControl.isTagged(control())
                ? TaggedHeaderFlyweight.HEADER_LENGTH : UntaggedHeaderFlyweight.HEADER_LENGTH;
    }

    default boolean tagged() {
        return control() >= 0 && DdpControl.isTagged(control());
    }

    default boolean last() {
        return control() >= 0 && DdpControl.isLast(control());
    }

    /** Octets after the DDP header (0 for an incomplete header). */
    default int payloadLength() {
        return Math.max(0, segmentLength() - headerLength());
    }

    /** A complete tagged header (RFC 5041 §4.2). */
    record Tagged(int segmentLength, int control, int rdmapControl, int stag, long taggedOffset) implements DdpFields {}

    /** A complete untagged header (RFC 5041 §4.3); {@code rsvdUlpWord} is RsvdULP bits 8–39. */
    record Untagged(int segmentLength, int control, int rdmapControl, int rsvdUlpWord, int queueNumber,
                    int messageSequenceNumber, int messageOffset) implements DdpFields {}

    /** Fewer octets than the header the T bit announces. */
    record Incomplete(int segmentLength, int control, int rdmapControl) implements DdpFields {}

    /** Reads the segment at {@code segment[index, index + length)}. */
    static DdpFields read(ByteBuf segment, int index, int length) {
        int control = length >= 1 ? segment.getUnsignedByte(index + TaggedHeaderFlyweight.CONTROL_OFFSET) : -1;
        int rdmapControl = length >= 2 ? segment.getUnsignedByte(index + TaggedHeaderFlyweight.RSVD_ULP_OFFSET) : -1;
        if (control < 0) {
            return new Incomplete(length, control, rdmapControl);
        }
        if (DdpControl.isTagged(control)) {
            if (length < TaggedHeaderFlyweight.HEADER_LENGTH) {
                return new Incomplete(length, control, rdmapControl);
            }
            TaggedHeaderFlyweight h = new TaggedHeaderFlyweight().wrap(segment, index);
            return new Tagged(length, control, rdmapControl, h.stag(), h.taggedOffset());
        }
        if (length < UntaggedHeaderFlyweight.HEADER_LENGTH) {
            return new Incomplete(length, control, rdmapControl);
        }
        UntaggedHeaderFlyweight h = new UntaggedHeaderFlyweight().wrap(segment, index);
        return new Untagged(length, control, rdmapControl, h.rsvdUlpWord(), h.queueNumber(), h.messageSequenceNumber(),
                h.messageOffset());
    }
}
