package org.iwarp4j.ddp.header;

import io.netty.buffer.ByteBuf;

/**
 * What the tagged and the untagged DDP header share: the DDP Control Field (octet 0) and the first
 * octet of RsvdULP (octet 1), which RDMAP uses as its control field (RFC 5041 §4.2, §4.3; RFC 5040 §4.1).
 *
 * <p>A flyweight ({@link HeaderFlyweight}): {@link #wrap(ByteBuf, int)} points it at the first octet of a DDP
 * header inside a buffer.
 *
 * @param <F> the concrete flyweight, so that fluent setters return it
 */
public abstract class DdpHeaderFlyweight<F extends DdpHeaderFlyweight<F>> extends HeaderFlyweight<F> {

    /** Octet 0: the DDP Control Field (RFC 5041 §4.1). */
    public static final int CONTROL_OFFSET = 0;
    /** Octet 1: RsvdULP (tagged: all of it; untagged: its first 8 bits) — RDMAP's control field. */
    public static final int RSVD_ULP_OFFSET = 1;

    /** The length of this header in octets (14 tagged, 18 untagged). */
    public abstract int headerLength();

    /** The DDP Control Field as an unsigned octet. */
    public int control() {
        return buffer.getUnsignedByte(index + CONTROL_OFFSET);
    }

    @SuppressWarnings("unchecked")
    public F control(int control) {
        buffer.setByte(index + CONTROL_OFFSET, control);
        return (F) this;
    }

    public boolean tagged() {
        return DdpControl.isTagged(control());
    }

    public boolean last() {
        return DdpControl.isLast(control());
    }

    public int version() {
        return DdpControl.version(control());
    }

    /** Octet 1 of the header (RsvdULP bits 0–7; RDMAP's control field), unsigned. */
    public int rsvdUlp() {
        return buffer.getUnsignedByte(index + RSVD_ULP_OFFSET);
    }

    @SuppressWarnings("unchecked")
    public F rsvdUlp(int rsvdUlp) {
        buffer.setByte(index + RSVD_ULP_OFFSET, rsvdUlp);
        return (F) this;
    }
}
