package org.iwarp4j.ddp.header;

/**
 * The Tagged Buffer DDP Header, 14 octets (RFC 5041 §4.2). Offsets are relative to the first octet of the
 * DDP header (the first octet of the ULPDU; RFC 5041 Figure 3 draws the same header after MPA's 16-bit
 * ULPDU_Length, so its bit numbers are 16 higher). Network byte order.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |T|L| Rsvd  | DV|   RsvdULP     |        STag (bits 0-15)       |  octets 0-3
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |       STag (bits 16-31)       |      TO (bits 0-15)           |  4-7
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                       TO (bits 16-47)                         |  8-11
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |       TO (bits 48-63)         |   DDP payload ...                12-13, 14..
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <ul>
 *   <li>RsvdULP (8 bits): opaque to DDP, passed to the ULP; RDMAP's control field.</li>
 *   <li>STag: the Steering Tag naming the Data Sink's tagged buffer.</li>
 *   <li>TO: the 64-bit Tagged Offset, in the STag's buffer, of this segment's first payload octet.</li>
 * </ul>
 */
public final class TaggedHeaderFlyweight extends DdpHeaderFlyweight<TaggedHeaderFlyweight> {

    /** Octets 2–5: STag (RFC 5041 §4.2). */
    public static final int STAG_OFFSET = 2;
    /** Octets 6–13: TO (RFC 5041 §4.2); not 8-aligned within the header. */
    public static final int TO_OFFSET = 6;
    /** Length of the tagged header and offset of the payload: 14 octets. */
    public static final int HEADER_LENGTH = 14;

    @Override
    public int headerLength() {
        return HEADER_LENGTH;
    }

    /** The STag, an unsigned 32-bit value held in an {@code int}. */
    public int stag() {
        return buffer.getInt(index + STAG_OFFSET);
    }

    public TaggedHeaderFlyweight stag(int stag) {
        buffer.setInt(index + STAG_OFFSET, stag);
        return this;
    }

    /** The Tagged Offset, an unsigned 64-bit value held in a {@code long}. */
    public long taggedOffset() {
        return buffer.getLong(index + TO_OFFSET);
    }

    public TaggedHeaderFlyweight taggedOffset(long to) {
        buffer.setLong(index + TO_OFFSET, to);
        return this;
    }

    @Override
    public String toString() {
        return buffer == null ? "TaggedHeader[unwrapped]"
                : String.format("TaggedHeader[%s rsvdUlp=0x%02x stag=0x%08x to=0x%016x]",
                        DdpControl.describe(control()), rsvdUlp(), stag(), taggedOffset());
    }
}
