package org.iwarp4j.verbs.internal;

import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.verbs.Stag;

import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The RNIC's STag table: 24-bit index → region or window, with an 8-bit key per index that changes on every
 * registration, so a stale STag never finds new memory (RFC 5040 §8.1.1: STags hard to guess; the
 * lookup compares the full 32 bits, as {@code TaggedBufferRegistry} requires).
 *
 * <p>Lookups run on every event loop for every incoming tagged segment: one volatile array read and a
 * compare, no lock, no allocation. Registration (rare, from user threads) is synchronized. Index 0 is
 * never used, so no STag is 0 (some RNICs refuse STag 0 on the wire even where RFC 5040 allows it).
 */
final class StagTable {

    private final AtomicReferenceArray<StagOwner> regions;
    private final int[] keys;
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private int nextUnused = 1;

    StagTable(int capacity) {
        this.regions = new AtomicReferenceArray<>(capacity + 1);
        this.keys = new int[capacity + 1];
        SecureRandom random = new SecureRandom();
        for (int i = 0; i < keys.length; i++) {
            keys[i] = random.nextInt(256);
        }
    }

    /** The region or window whose current STag is exactly {@code stag}, or {@code null}. */
    StagOwner owner(int stag) {
        StagOwner r = ownerAtIndex(stag);
        return r != null && r.stagValue() == stag ? r : null;
    }

    /**
     * The region or window at {@code stag}'s index whatever its key, or {@code null}: a work request names an STag its
     * earlier requests may still change (a fast registration), so it is checked in full only when it executes.
     */
    StagOwner ownerAtIndex(int stag) {
        int index = stag >>> 8;
        if (index == 0 || index >= regions.length()) {
            return null;
        }
        return regions.get(index);
    }

    /** DDP's view of the region whose current STag is exactly {@code stag}, or {@code null}. */
    TaggedBuffer lookup(int stag) {
        StagOwner r = owner(stag);
        return r != null ? r.tagged() : null;
    }

    /** Takes a free index for {@code region}; returns its first STag, or {@code null} if the table is full. */
    synchronized Stag allocate(StagOwner region) {
        int index;
        if (!free.isEmpty()) {
            index = free.poll();
        } else if (nextUnused < regions.length()) {
            index = nextUnused++;
        } else {
            return null;
        }
        Stag stag = nextKey(index);
        regions.set(index, region);
        return stag;
    }

    /** A new key for {@code index} (fast registration rebinding). */
    synchronized Stag nextKey(int index) {
        keys[index] = (keys[index] + 1) & 0xFF;
        return Stag.of(index, keys[index]);
    }

    synchronized void release(int index, StagOwner region) {
        if (regions.compareAndSet(index, region, null)) {
            free.add(index);
        }
    }

    /** The regions and windows registered now, in index order (a snapshot: {@code Rnic.close} deregisters them). */
    synchronized List<StagOwner> owners() {
        List<StagOwner> all = new ArrayList<>();
        for (int i = 1; i < nextUnused; i++) {
            StagOwner o = regions.get(i);
            if (o != null) {
                all.add(o);
            }
        }
        return all;
    }

    synchronized int inUse() {
        return nextUnused - 1 - free.size();
    }
}
