package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Feeds ranges of {@code ByteBuf}s to a writer's {@link CRC32C} without allocating on the way.
 *
 * <p>{@code CRC32C} reads direct memory only through a {@code ByteBuffer}. A slice of a direct buffer (every payload
 * an FPDU carries from registered memory is one) makes a new {@code ByteBuffer} each time it is asked for one:
 * two objects per FPDU. So the feed keeps a {@code ByteBuffer} view of its own over the whole buffer the last slice
 * came from, and reads each later slice of that buffer through it: one view per registered buffer and flush instead
 * of one per FPDU. Short ranges of direct memory go through a scratch array ({@link Crc32c#SCRATCH_LENGTH}), heap
 * ranges through their array, anything else as {@link Crc32c#update(CRC32C, ByteBuf, int, int)} does.
 *
 * <p>The view is found by address: a slice's {@code memoryAddress()} minus its parent's is where the slice starts in
 * the parent (the innermost buffer {@code unwrap()} leads to), so the view is used only while the parent is the same
 * object at the same address with the same capacity (a pooled parent that was recycled for other memory gets a new
 * view). Without addresses (a JVM where Netty does not use them) it is not used. The feed holds the parent and the
 * view weakly: a connection that once sent from a region keeps nothing of it alive after the application dropped
 * it. Not thread-safe: one per writer, as its {@code CRC32C}.
 */
final class CrcFeed {

    private final byte[] scratch = new byte[Crc32c.SCRATCH_LENGTH];
    private WeakReference<ByteBuf> parent;
    private long parentAddress;
    private int parentCapacity;
    private WeakReference<ByteBuffer> parentView;
    private long viewsMade;

    /** Adds {@code length} octets of {@code buf} from absolute {@code index} to {@code crc}. */
    void update(CRC32C crc, ByteBuf buf, int index, int length) {
        if (length == 0) {
            return;
        }
        if (!buf.hasArray() && length > scratch.length) {
            ByteBuffer view = viewOfParent(buf, index, length);
            if (view != null) {
                crc.update(view);
                return;
            }
        }
        Crc32c.update(crc, buf, index, length, scratch);
    }

    /**
     * {@code length} octets of {@code buf} from {@code index} through the view of its parent (positioned and
     * limited to them), or {@code null} when {@code buf} is not a slice of direct memory with an address.
     */
    private ByteBuffer viewOfParent(ByteBuf buf, int index, int length) {
        ByteBuf p = buf.unwrap();
        if (p == null || !buf.hasMemoryAddress()) {
            return null;
        }
        for (ByteBuf deeper = p.unwrap(); deeper != null; deeper = deeper.unwrap()) {
            p = deeper; // through a leak detector's wrapper to the buffer that owns the memory
        }
        if (!p.hasMemoryAddress() || p.nioBufferCount() != 1) {
            return null;
        }
        long address = p.memoryAddress();
        int capacity = p.capacity();
        long start = buf.memoryAddress() - address + index;
        if (start < 0 || start + length > capacity) {
            return null;
        }
        ByteBuffer view = parentView == null ? null : parentView.get();
        if (view == null || parent.get() != p || address != parentAddress || capacity != parentCapacity) {
            view = p.nioBuffer(0, capacity);
            parent = new WeakReference<>(p);
            parentView = new WeakReference<>(view);
            parentAddress = address;
            parentCapacity = capacity;
            viewsMade++;
        }
        view.clear().position((int) start).limit((int) start + length);
        return view;
    }

    /** Views made so far (tests). */
    long viewsMade() {
        return viewsMade;
    }
}
