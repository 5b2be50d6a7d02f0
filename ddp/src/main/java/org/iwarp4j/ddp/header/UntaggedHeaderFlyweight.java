package org.iwarp4j.ddp.header;

/**
 * The Untagged Buffer DDP Header, 18 octets (RFC 5041 §4.3). Offsets are relative to the first octet of
 * the DDP header (the first octet of the ULPDU; RFC 5041 Figure 4 draws it after MPA's ULPDU_Length, so
 * its bit numbers are 16 higher). Network byte order.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |T|L| Rsvd  | DV| RsvdULP[0:7]  |     RsvdULP[8:23]             |  octets 0-3
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |     RsvdULP[24:39]            |        QN (bits 0-15)         |  4-7
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |        QN (bits 16-31)        |        MSN (bits 0-15)        |  8-11
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |        MSN (bits 16-31)       |        MO (bits 0-15)         |  12-15
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |        MO (bits 16-31)        |   DDP payload ...                16-17, 18..
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <ul>
 *   <li>RsvdULP (40 bits): opaque to DDP. RDMAP uses its first octet ({@link #rsvdUlp()}) as the RDMAP
 *       control field and the other 32 bits ({@link #rsvdUlpWord()}) as the Invalidate STag.</li>
 *   <li>QN: Queue Number; MSN: Message Sequence Number (first message of each queue is 1, +1 modulo
 *       2^32); MO: Message Offset of this segment's first payload octet within the message.</li>
 * </ul>
 */
public final class UntaggedHeaderFlyweight extends DdpHeaderFlyweight<UntaggedHeaderFlyweight> {

    /** Octets 2–5: RsvdULP bits 8–39 (RDMAP's Invalidate STag) (RFC 5041 §4.3). */
    public static final int RSVD_ULP_WORD_OFFSET = 2;
    /** Octets 6–9: QN (RFC 5041 §4.3). */
    public static final int QN_OFFSET = 6;
    /** Octets 10–13: MSN (RFC 5041 §4.3). */
    public static final int MSN_OFFSET = 10;
    /** Octets 14–17: MO (RFC 5041 §4.3). */
    public static final int MO_OFFSET = 14;
    /** Length of the untagged header and offset of the payload: 18 octets. */
    public static final int HEADER_LENGTH = 18;

    @Override
    public int headerLength() {
        return HEADER_LENGTH;
    }

    /** RsvdULP bits 8–39 (octets 2–5), e.g. RDMAP's Invalidate STag; unsigned 32 bits in an {@code int}. */
    public int rsvdUlpWord() {
        return buffer.getInt(index + RSVD_ULP_WORD_OFFSET);
    }

    public UntaggedHeaderFlyweight rsvdUlpWord(int word) {
        buffer.setInt(index + RSVD_ULP_WORD_OFFSET, word);
        return this;
    }

    /** The Queue Number, unsigned 32 bits in an {@code int}. */
    public int queueNumber() {
        return buffer.getInt(index + QN_OFFSET);
    }

    public UntaggedHeaderFlyweight queueNumber(int qn) {
        buffer.setInt(index + QN_OFFSET, qn);
        return this;
    }

    /** The Message Sequence Number, unsigned 32 bits in an {@code int}. */
    public int messageSequenceNumber() {
        return buffer.getInt(index + MSN_OFFSET);
    }

    public UntaggedHeaderFlyweight messageSequenceNumber(int msn) {
        buffer.setInt(index + MSN_OFFSET, msn);
        return this;
    }

    /** The Message Offset, unsigned 32 bits in an {@code int}. */
    public int messageOffset() {
        return buffer.getInt(index + MO_OFFSET);
    }

    public UntaggedHeaderFlyweight messageOffset(int mo) {
        buffer.setInt(index + MO_OFFSET, mo);
        return this;
    }

    @Override
    public String toString() {
        return buffer == null ? "UntaggedHeader[unwrapped]"
                : String.format("UntaggedHeader[%s rsvdUlp=0x%02x rsvdUlpWord=0x%08x qn=%s msn=%s mo=%s]",
                        DdpControl.describe(control()), rsvdUlp(), rsvdUlpWord(),
                        Integer.toUnsignedString(queueNumber()), Integer.toUnsignedString(messageSequenceNumber()),
                        Integer.toUnsignedString(messageOffset()));
    }
}
