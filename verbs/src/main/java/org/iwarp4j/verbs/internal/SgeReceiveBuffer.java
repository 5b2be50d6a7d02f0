package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Sge;

import java.util.List;

/**
 * A posted receive as DDP's untagged buffer (RFC 5041 §4.3): the message offset space
 * {@code 0..capacity} is scattered over the request's SGEs in order. Reused from a ring slot to the
 * next; while posted it holds one reference on each SGE's region memory, so a region closed meanwhile
 * is never freed under a placement.
 */
final class SgeReceiveBuffer implements UntaggedBuffer {

    private ByteBuf[] memory = new ByteBuf[4];
    private long[] offsets = new long[4];
    private int[] lengths = new int[4];
    private int count;
    private int capacity;
    long wrId;

    /**
     * Takes the request's SGEs (retaining their memory). Returns false, holding nothing, if a region was
     * deregistered since the request was validated.
     */
    boolean reset(ReceiveWorkRequest request) {
        List<Sge> sges = request.sges();
        int n = sges.size();
        if (memory.length < n) {
            memory = new ByteBuf[n];
            offsets = new long[n];
            lengths = new int[n];
        }
        wrId = request.wrId();
        count = 0;
        capacity = 0;
        for (int i = 0; i < n; i++) {
            Sge sge = sges.get(i);
            ByteBuf m = ((RegionImpl) sge.region()).memory();
            try {
                if (m == null) {
                    release();
                    return false;
                }
                m.retain();
            } catch (RuntimeException e) {
                release();
                return false;
            }
            memory[i] = m;
            offsets[i] = sge.offset();
            lengths[i] = sge.length();
            capacity += sge.length();
            count++;
        }
        return true;
    }

    /** Drops the references taken by {@link #reset}. */
    void release() {
        for (int i = 0; i < count; i++) {
            memory[i].release();
            memory[i] = null;
        }
        count = 0;
        capacity = 0;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public void place(int messageOffset, ByteBuf source, int sourceIndex, int length) {
        int skip = messageOffset;
        int i = 0;
        while (i < count && skip >= lengths[i]) {
            skip -= lengths[i];
            i++;
        }
        int from = sourceIndex;
        int left = length;
        while (left > 0 && i < count) {
            int chunk = Math.min(left, lengths[i] - skip);
            memory[i].setBytes((int) (offsets[i] + skip), source, from, chunk);
            from += chunk;
            left -= chunk;
            skip = 0;
            i++;
        }
    }
}
