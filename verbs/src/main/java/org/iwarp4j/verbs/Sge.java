package org.iwarp4j.verbs;

import java.util.Objects;

/**
 * One scatter/gather element ({@code ibv_sge}): {@code length} octets of a registered region starting
 * {@code offset} octets into it. Unlike {@code ibv_sge} it names the region rather than a raw address
 * and lkey; the region's STag is the lkey.
 */
public record Sge(MemoryRegion region, long offset, int length) {

    public Sge {
        Objects.requireNonNull(region, "region");
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("offset and length must not be negative: " + offset + ", " + length);
        }
    }

    /** The whole region. */
    public static Sge of(MemoryRegion region) {
        return new Sge(region, 0, Math.toIntExact(region.length()));
    }
}
