package org.iwarp4j.ddp.memory;

/**
 * The tagged-buffer checks of RFC 5041 §7.1 as a pure, allocation-free function, in the order DDP applies
 * them:
 *
 * <ol>
 *   <li>the 64-bit unsigned sum TO + length does not wrap ({@link Outcome#TO_WRAP}, {@link #wraps});</li>
 *   <li>the STag names a buffer that is valid ({@link Outcome#INVALID_STAG});</li>
 *   <li>the buffer belongs to the stream's protection domain and, if bound to a stream, to this stream
 *       (RFC 5041 §8.2; {@link Outcome#NOT_ASSOCIATED});</li>
 *   <li>the buffer allows the access ({@link Outcome#ACCESS_DENIED});</li>
 *   <li>TO lies within the registered range ({@link Outcome#BASE_OR_BOUNDS});</li>
 *   <li>TO + length lies within the registered range ({@link Outcome#BASE_OR_BOUNDS}).</li>
 * </ol>
 *
 * <p>RFC 5041 §7.1 lists its checks without an order. The wrap comes first here because it is the one
 * that needs nothing but the segment's octets: whatever the receiver has registered, the same octets
 * draw the same Terminate, which is what {@code iwarp explain} and the conformance tools report from a
 * capture. An access whose sum reaches 2^64 is a wrap even when its last octet, 0xFFFFFFFFFFFFFFFF,
 * lies in a region — e.g. TO 0xFFFFFFFFFFFFFF00 with 256 octets (read exactly as RFC 5041 §7.1 check 5
 * is written: the sum wraps). Ranges are computed on offsets, {@code to - base} modulo 2^64, so a
 * region is never considered to wrap into itself.
 *
 * <p>DDP maps the outcomes to DDP Tagged Buffer errors (an access-right failure becomes Invalid STag, as
 * there is no DDP code for it); RDMAP maps them to its Remote Protection errors for a Read Request's
 * source buffer (RFC 5040 §7.2) with {@code ACCESS_DENIED} → Access rights violation.
 */
public final class TaggedAccessCheck {

    /** The result of {@link #check}; {@link #OK} means the access may proceed. */
    public enum Outcome {
        OK,
        INVALID_STAG,
        NOT_ASSOCIATED,
        ACCESS_DENIED,
        BASE_OR_BOUNDS,
        TO_WRAP
    }

    private TaggedAccessCheck() {}

    /**
     * Checks an access of {@code length} octets (unsigned 32 bits in a {@code long}, 0…2^32−1) at Tagged
     * Offset {@code to} of the buffer {@code buffer} (null = STag not registered).
     *
     * <p>The caller decides what a zero-length access means: RFC 5041 §5.2 says STag and TO of a
     * zero-length tagged segment MUST NOT be checked, and RFC 5040 §5.2 the same for a zero-length Read.
     *
     * @param streamProtectionDomain the protection domain of the stream doing the access
     * @param stream                 the identity of that stream (compared with {@link TaggedBuffer#associatedStream()})
     */
    public static Outcome check(TaggedBuffer buffer, long to, long length, TaggedBufferAccess access,
                                long streamProtectionDomain, Object stream) {
        // RFC 5041 §7.1 check 5, first: TO + length must stay below 2^64; this needs no registered state.
        if (wraps(to, length)) {
            return Outcome.TO_WRAP;
        }
        // RFC 5041 §7.1 check 1: "The STag is valid for this stream".
        if (buffer == null || !buffer.isValid()) {
            return Outcome.INVALID_STAG;
        }
        // RFC 5041 §8.2: an STag of another PD, or bound to another stream, MUST NOT be used for placement.
        Object boundStream = buffer.associatedStream();
        if (buffer.protectionDomain() != streamProtectionDomain || (boundStream != null && boundStream != stream)) {
            return Outcome.NOT_ASSOCIATED;
        }
        // RFC 5041 §7.1 check 2: "The STag has an associated buffer that allows Placement of the payload".
        if (!buffer.grants(access)) {
            return Outcome.ACCESS_DENIED;
        }
        long regionLength = buffer.memory().capacity();
        long offset = to - buffer.baseTaggedOffset();
        // RFC 5041 §7.1 check 3: "The TO falls in the range of legal offsets registered for the STag".
        if (Long.compareUnsigned(offset, regionLength) > 0 || (offset == regionLength && length > 0)) {
            return Outcome.BASE_OR_BOUNDS;
        }
        // RFC 5041 §7.1 check 4: "The sum of the DDP Segment payload length and the TO falls in the range".
        // offset < 2^31 and length < 2^32 here, so the long sum cannot overflow.
        if (offset + length > regionLength) {
            return Outcome.BASE_OR_BOUNDS;
        }
        return Outcome.OK;
    }

    /**
     * Whether an access of {@code length} octets (0…2^32−1) at {@code to} makes the 64-bit unsigned sum
     * TO + length wrap, i.e. reach 2^64 (RFC 5041 §7.1 check 5). Decided by the octets alone; never true
     * for a zero-length access.
     */
    public static boolean wraps(long to, long length) {
        return length > 0 && Long.compareUnsigned(to + length, to) < 0;
    }
}
