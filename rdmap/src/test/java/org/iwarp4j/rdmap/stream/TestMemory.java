package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The verbs side's memory for tests: regions in pooled direct buffers (leak-tracked), each framed by
 * guard octets so that a write outside a region is detected ({@link #guardsIntact()}). Memory that
 * outlives many streams (a fuzz target's, registered once) is brought back between them by
 * {@link #restore()} to what {@link #keep()} took.
 */
final class TestMemory implements RdmapMemory, AutoCloseable {

    static final Set<TaggedBufferAccess> ALL = EnumSet.allOf(TaggedBufferAccess.class);
    static final int GUARD = 16;
    static final byte GUARD_BYTE = (byte) 0xA5;

    private final ByteBufAllocator allocator;
    private final Map<Integer, TestRegion> regions = new HashMap<>();
    private final List<ByteBuf> arenas = new ArrayList<>();
    private final List<byte[]> kept = new ArrayList<>();
    final List<Integer> invalidated = new ArrayList<>();

    TestMemory() {
        this(ByteBufAllocator.DEFAULT);
    }

    TestMemory(ByteBufAllocator allocator) {
        this.allocator = allocator;
    }

    TestRegion register(int stag, long base, int length, Set<TaggedBufferAccess> access, long pd) {
        ByteBuf arena = allocator.directBuffer(length + 2 * GUARD, length + 2 * GUARD);
        byte[] guards = new byte[GUARD];
        Arrays.fill(guards, GUARD_BYTE);
        arena.setBytes(0, guards).setZero(GUARD, length).setBytes(GUARD + length, guards);
        arenas.add(arena);
        TestRegion region = new TestRegion(stag, base, arena.slice(GUARD, length), access, pd);
        regions.put(stag, region);
        return region;
    }

    /** Takes every arena's octets as they are now (the guards, each region's contents) for {@link #restore()}. */
    void keep() {
        kept.clear();
        for (ByteBuf arena : arenas) {
            byte[] octets = new byte[arena.capacity()];
            arena.getBytes(0, octets);
            kept.add(octets);
        }
    }

    /**
     * Brings the memory back to what {@link #keep()} took: every arena's octets (one copy each), every region
     * valid and whole again ({@link TestRegion#restore()}), no invalidation remembered.
     */
    void restore() {
        for (int i = 0; i < arenas.size(); i++) {
            arenas.get(i).setBytes(0, kept.get(i));
        }
        for (TestRegion region : regions.values()) {
            region.restore();
        }
        invalidated.clear();
    }

    /** Whether nothing but this memory holds an arena (every retained slice of a region was released). */
    boolean unshared() {
        for (ByteBuf arena : arenas) {
            if (arena.refCnt() != 1) {
                return false;
            }
        }
        return true;
    }

    TestRegion region(int stag) {
        return regions.get(stag);
    }

    boolean guardsIntact() {
        for (ByteBuf arena : arenas) {
            int length = arena.capacity() - 2 * GUARD;
            for (int i = 0; i < GUARD; i++) {
                if (arena.getByte(i) != GUARD_BYTE || arena.getByte(GUARD + length + i) != GUARD_BYTE) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public TaggedBuffer lookup(int stag) {
        return regions.get(stag);
    }

    @Override
    public boolean invalidate(TaggedBuffer buffer) {
        TestRegion region = (TestRegion) buffer;
        if (!region.remotelyInvalidatable) {
            return false;
        }
        region.invalidate();
        invalidated.add(region.stag);
        return true;
    }

    @Override
    public void close() {
        for (ByteBuf arena : arenas) {
            arena.release();
        }
        arenas.clear();
        regions.clear();
    }
}
