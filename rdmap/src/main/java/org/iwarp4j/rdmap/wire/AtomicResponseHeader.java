package org.iwarp4j.rdmap.wire;

import org.iwarp4j.ddp.header.HeaderFlyweight;

/**
 * Flyweight of the Atomic Response header, RFC 7306 §5.2.2 (Fig 6): 12 octets after the untagged DDP
 * header (QN 3) of an Atomic Response. (RFC 7306 §4 calls it "32 bytes"; Figure 6, the vectors and
 * Wireshark define 12 octets.)
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Original Request Identifier                   |  0
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Original Remote Data Value                    |  4
 * +                                                               +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+  12
 * </pre>
 */
public final class AtomicResponseHeader extends HeaderFlyweight<AtomicResponseHeader> {

    public static final int ORIGINAL_REQUEST_ID_OFFSET = 0;
    public static final int ORIGINAL_REMOTE_DATA_OFFSET = 4;
    public static final int LENGTH = 12;

    public int originalRequestId() {
        return buffer.getInt(index + ORIGINAL_REQUEST_ID_OFFSET);
    }

    public AtomicResponseHeader originalRequestId(int id) {
        buffer.setInt(index + ORIGINAL_REQUEST_ID_OFFSET, id);
        return this;
    }

    public long originalRemoteData() {
        return buffer.getLong(index + ORIGINAL_REMOTE_DATA_OFFSET);
    }

    public AtomicResponseHeader originalRemoteData(long value) {
        buffer.setLong(index + ORIGINAL_REMOTE_DATA_OFFSET, value);
        return this;
    }
}
