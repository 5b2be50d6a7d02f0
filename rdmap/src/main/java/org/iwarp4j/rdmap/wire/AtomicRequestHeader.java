package org.iwarp4j.rdmap.wire;

import org.iwarp4j.ddp.header.HeaderFlyweight;

/**
 * Flyweight of the Atomic Request header, RFC 7306 §5.2.1 (Fig 4): 52 octets after the untagged DDP
 * header (QN 1, shared with Read Requests [EXT-08]) of an Atomic Request.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     Reserved (Not Used)               |AOpCode|  0
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Request Identifier                       |  4
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         Remote STag                           |  8
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Remote Tagged Offset (64)                    |  12
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Add or Swap Data (64)                        |  20
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Add or Swap Mask (64)                        |  28
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Compare Data (64)                            |  36
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Compare Mask (64)                            |  44
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+  52
 * </pre>
 *
 * The 28 reserved bits are sent as 0 and ignored on receipt; the Remote TO MUST be 8-octet aligned
 * [EXT-04]. For FetchAdd the Compare fields are sent as 0 / all-ones and ignored (RFC 7306 §5.2.1).
 */
public final class AtomicRequestHeader extends HeaderFlyweight<AtomicRequestHeader> {

    public static final int AOPCODE_OFFSET = 0;
    public static final int AOPCODE_MASK = 0x0F;
    public static final int REQUEST_ID_OFFSET = 4;
    public static final int REMOTE_STAG_OFFSET = 8;
    public static final int REMOTE_TO_OFFSET = 12;
    public static final int ADD_OR_SWAP_DATA_OFFSET = 20;
    public static final int ADD_OR_SWAP_MASK_OFFSET = 28;
    public static final int COMPARE_DATA_OFFSET = 36;
    public static final int COMPARE_MASK_OFFSET = 44;
    public static final int LENGTH = 52;

    /** The raw 4-bit AOpCode (may be reserved/unassigned; see {@link AtomicOpcode#fromCode}). */
    public int atomicOpcodeCode() {
        return buffer.getInt(index + AOPCODE_OFFSET) & AOPCODE_MASK;
    }

    /** Writes the whole first word: 28 reserved zero bits and the AOpCode. */
    public AtomicRequestHeader atomicOpcode(AtomicOpcode opcode) {
        buffer.setInt(index + AOPCODE_OFFSET, opcode.code());
        return this;
    }

    public int requestId() {
        return buffer.getInt(index + REQUEST_ID_OFFSET);
    }

    public AtomicRequestHeader requestId(int id) {
        buffer.setInt(index + REQUEST_ID_OFFSET, id);
        return this;
    }

    public int remoteStag() {
        return buffer.getInt(index + REMOTE_STAG_OFFSET);
    }

    public AtomicRequestHeader remoteStag(int stag) {
        buffer.setInt(index + REMOTE_STAG_OFFSET, stag);
        return this;
    }

    public long remoteTaggedOffset() {
        return buffer.getLong(index + REMOTE_TO_OFFSET);
    }

    public AtomicRequestHeader remoteTaggedOffset(long to) {
        buffer.setLong(index + REMOTE_TO_OFFSET, to);
        return this;
    }

    public long addOrSwapData() {
        return buffer.getLong(index + ADD_OR_SWAP_DATA_OFFSET);
    }

    public AtomicRequestHeader addOrSwapData(long value) {
        buffer.setLong(index + ADD_OR_SWAP_DATA_OFFSET, value);
        return this;
    }

    public long addOrSwapMask() {
        return buffer.getLong(index + ADD_OR_SWAP_MASK_OFFSET);
    }

    public AtomicRequestHeader addOrSwapMask(long value) {
        buffer.setLong(index + ADD_OR_SWAP_MASK_OFFSET, value);
        return this;
    }

    public long compareData() {
        return buffer.getLong(index + COMPARE_DATA_OFFSET);
    }

    public AtomicRequestHeader compareData(long value) {
        buffer.setLong(index + COMPARE_DATA_OFFSET, value);
        return this;
    }

    public long compareMask() {
        return buffer.getLong(index + COMPARE_MASK_OFFSET);
    }

    public AtomicRequestHeader compareMask(long value) {
        buffer.setLong(index + COMPARE_MASK_OFFSET, value);
        return this;
    }
}
