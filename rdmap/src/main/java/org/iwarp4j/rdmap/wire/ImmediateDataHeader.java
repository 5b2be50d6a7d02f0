package org.iwarp4j.rdmap.wire;

import org.iwarp4j.ddp.header.HeaderFlyweight;

/**
 * Flyweight of the Immediate Data header, RFC 7306 §6.2 (Fig 7): exactly 8 octets of ULP data after the
 * untagged DDP header (QN 0) of an Immediate Data or Immediate Data with SE message [EXT-02].
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        Immediate Data                         |  0
 * +                                                               +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+  8
 * </pre>
 *
 * The 64 bits are opaque to RDMAP; they are read and written as one big-endian {@code long}.
 */
public final class ImmediateDataHeader extends HeaderFlyweight<ImmediateDataHeader> {

    public static final int IMMEDIATE_DATA_OFFSET = 0;
    public static final int LENGTH = 8;

    public long immediateData() {
        return buffer.getLong(index + IMMEDIATE_DATA_OFFSET);
    }

    public ImmediateDataHeader immediateData(long data) {
        buffer.setLong(index + IMMEDIATE_DATA_OFFSET, data);
        return this;
    }
}
