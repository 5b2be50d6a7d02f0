package org.iwarp4j.verbs;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One scatter/gather element ({@code ibv_sge}): {@code length} octets of a registered region starting
 * {@code offset} octets into it. Unlike {@code ibv_sge} it names the region rather than a raw address
 * and lkey; the region's STag is the lkey.
 *
 * @param region the registered memory (or unregistered memory of {@link #inline(ByteBuffer)})
 * @param offset first octet, relative to the region
 * @param length octets
 */
public record Sge(MemoryRegion region, long offset, int length) {

    /** Checks the components. */
    public Sge {
        Objects.requireNonNull(region, "region");
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("offset and length must not be negative: " + offset + ", " + length);
        }
        if (offset > Long.MAX_VALUE - length) {
            throw new IllegalArgumentException("offset " + offset + " + length " + length + " overflows a long");
        }
    }

    /**
     * The whole region.
     *
     * @param region a registered region
     * @return an SGE over its {@link MemoryRegion#length()} octets
     */
    public static Sge of(MemoryRegion region) {
        return new Sge(region, 0, Math.toIntExact(region.length()));
    }

    /**
     * Unregistered memory for a {@link SendFlag#INLINE} Send or Write: the {@code position..limit} octets of
     * {@code data} (heap or direct), copied when the request is posted. Refused without the INLINE flag.
     *
     * @param data the octets to send; its position and limit are not changed
     * @return an SGE that names no region
     */
    public static Sge inline(ByteBuffer data) {
        ByteBuffer view = data.slice();
        return new Sge(new InlineMemory(view), 0, view.remaining());
    }

    /**
     * Whether this SGE names unregistered memory ({@link #inline(ByteBuffer)}).
     *
     * @return true for an inline SGE
     */
    public boolean isInline() {
        return region instanceof InlineMemory;
    }
}
