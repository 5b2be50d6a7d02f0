package org.iwarp4j.rdmap.wire;

import org.iwarp4j.ddp.header.HeaderFlyweight;

/**
 * Flyweight of the RDMA Read Request header, RFC 5040 §4.4 (Fig 7). It follows the untagged DDP header
 * (QN 1) of a Read Request [RDMAP-05], and is also the "Terminated RDMA Header" of a Terminate
 * (RFC 5040 §4.8). Offsets relative to the header; add 18 for the ULPDU offset.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        Data Sink STag                         |  0
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Data Sink Tagged Offset                      |  4
 * +                                                               +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  RDMA Read Message Size                       |  12
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Data Source STag                        |  16
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Data Source Tagged Offset                    |  20
 * +                                                               +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+  28
 * </pre>
 *
 * The sink STag/TO are copied unchanged into the Read Response [RDMAP-06]; the size is an unsigned
 * 32-bit octet count (0 allowed); the TOs are unsigned 64-bit values.
 */
public final class ReadRequestHeader extends HeaderFlyweight<ReadRequestHeader> {

    public static final int SINK_STAG_OFFSET = 0;
    public static final int SINK_TO_OFFSET = 4;
    public static final int MESSAGE_SIZE_OFFSET = 12;
    public static final int SOURCE_STAG_OFFSET = 16;
    public static final int SOURCE_TO_OFFSET = 20;
    public static final int LENGTH = 28;

    public int sinkStag() {
        return buffer.getInt(index + SINK_STAG_OFFSET);
    }

    public ReadRequestHeader sinkStag(int stag) {
        buffer.setInt(index + SINK_STAG_OFFSET, stag);
        return this;
    }

    public long sinkTaggedOffset() {
        return buffer.getLong(index + SINK_TO_OFFSET);
    }

    public ReadRequestHeader sinkTaggedOffset(long to) {
        buffer.setLong(index + SINK_TO_OFFSET, to);
        return this;
    }

    /** The RDMA Read Message Size as an unsigned 32-bit value in an {@code int}. */
    public int messageSize() {
        return buffer.getInt(index + MESSAGE_SIZE_OFFSET);
    }

    public ReadRequestHeader messageSize(int size) {
        buffer.setInt(index + MESSAGE_SIZE_OFFSET, size);
        return this;
    }

    public int sourceStag() {
        return buffer.getInt(index + SOURCE_STAG_OFFSET);
    }

    public ReadRequestHeader sourceStag(int stag) {
        buffer.setInt(index + SOURCE_STAG_OFFSET, stag);
        return this;
    }

    public long sourceTaggedOffset() {
        return buffer.getLong(index + SOURCE_TO_OFFSET);
    }

    public ReadRequestHeader sourceTaggedOffset(long to) {
        buffer.setLong(index + SOURCE_TO_OFFSET, to);
        return this;
    }
}
