package org.iwarp4j.verbs;

/**
 * A Steering Tag (RFC 5040 §2, RFC 5041 §4.2): the 32-bit name of registered memory. In iWARP the
 * local key and the remote key are the same value ({@code lkey == rkey}).
 *
 * <p>Layout, as Linux siw lays out user memory regions: the upper 24 bits are the index of the region
 * in the RNIC's STag table, the lower 8 bits a key that changes every time the index is (re)registered
 * or fast-registered, so a stale STag never names new memory (RFC 5040 §8.1.1: STags should be hard to
 * guess).
 *
 * @param value the 32-bit STag as it travels in DDP headers
 */
public record Stag(int value) {

    /** The STag made of a 24-bit table index and an 8-bit key. */
    public static Stag of(int index, int key) {
        if (index < 0 || index > 0xFF_FFFF) {
            throw new IllegalArgumentException("STag index must be 24 bits: " + index);
        }
        return new Stag(index << 8 | (key & 0xFF));
    }

    /** The 24-bit table index. */
    public int index() {
        return value >>> 8;
    }

    /** The 8-bit key. */
    public int key() {
        return value & 0xFF;
    }

    /** The same index with the next key: what a {@code FastRegister} work request binds next. */
    public Stag withNextKey() {
        return of(index(), key() + 1);
    }

    @Override
    public String toString() {
        String digits = Integer.toHexString(value); // %08x, without String.format: error texts name STags
        return "0x" + "00000000".substring(digits.length()) + digits;
    }
}
