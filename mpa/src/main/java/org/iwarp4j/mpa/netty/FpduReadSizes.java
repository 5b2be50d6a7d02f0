package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * Sizes a connection's TCP reads so that they end where FPDUs end, wrapping the channel's own
 * {@link RecvByteBufAllocator}.
 *
 * <p>An FPDU that a read ends inside is copied whole by {@link FpduDecoder} (its start into the carry, its rest
 * from the next read). With reads of 64 KiB and FPDUs of 32 KiB (loopback's MULPDU) nearly every read ends inside
 * one, so half the octets of a bulk transfer were copied once more on the receiving loop, the loop that limits a
 * bulk transfer. Once FPDUs of {@value #ALIGN_FROM} octets and more arrive (and markers are off), each read asks for
 * the rest of the FPDU the last one ended inside, then for whole FPDUs up to {@value #READ_TARGET} octets (and a
 * short FPDU beyond, so that the 116-octet tail of a 64 KiB Write does not start a read of its own). Their lengths
 * are predicted from the last ones ({@link FpduLengthHistory}): the pattern a stream of equal messages repeats, else
 * the length of the last FPDU again. While the kernel has that much queued (what a bulk transfer keeps it at) every
 * read ends on an FPDU boundary and nothing is carried; a guess that proves wrong (a shorter read, an FPDU of
 * another length) costs only the carry it would have cost anyway. Short FPDUs are left to the wrapped allocator: a
 * read carries at most one of them. With markers the wire length of an FPDU depends on where it starts, so they are
 * left to it too.
 *
 * <p>Netty makes a channel's read handle once, at its first read, so {@link #install} must run before that
 * ({@link MpaStartupHandler} calls it as it is added); the decoder then {@linkplain #follow follows} it. All on
 * the channel's event loop. Transports whose reads do not ask the handle for a buffer are unaffected.
 */
public final class FpduReadSizes implements RecvByteBufAllocator {

    /** Octets a read asks for when it is sized by FPDUs: Netty's largest adaptive read. */
    static final int READ_TARGET = 64 * 1024;
    /** FPDUs shorter than this are not sized for. */
    static final int ALIGN_FROM = 4096;
    /** Most FPDUs one read is sized for. */
    private static final int MAX_PREDICTED = 64;

    private final RecvByteBufAllocator wrapped;
    private FpduDecoder decoder;

    private FpduReadSizes(RecvByteBufAllocator wrapped) {
        this.wrapped = wrapped;
    }

    /**
     * Wraps {@code ch}'s read allocator, once; effective only when the channel has not read yet. Returns the
     * wrapper.
     */
    public static FpduReadSizes install(Channel ch) {
        RecvByteBufAllocator current = ch.config().getRecvByteBufAllocator();
        if (current instanceof FpduReadSizes sizes) {
            return sizes;
        }
        FpduReadSizes sizes = new FpduReadSizes(current);
        ch.config().setRecvByteBufAllocator(sizes);
        return sizes;
    }

    /** Sizes reads by {@code d}'s FPDUs from now on; null to stop. */
    void follow(FpduDecoder d) {
        this.decoder = d;
    }

    /**
     * The size of the next read, from the FPDUs received so far: {@code missing} octets of the FPDU of
     * {@code carriedLength} octets that the last read ended inside (both 0 if none), then the FPDUs the repeating
     * pattern of {@code history} predicts, while they fit in {@link #READ_TARGET} (the one that crosses it too if it is
     * shorter than {@link #ALIGN_FROM}); without a pattern, FPDUs of the carried or else the last one's length
     * ({@link #readSize(int, int, boolean)}). 0 (the wrapped allocator decides) with markers or without long FPDUs.
     */
    static int readSize(int missing, int carriedLength, boolean markers, FpduLengthHistory history) {
        if (markers || (!history.anyLong() && carriedLength < ALIGN_FROM)) {
            return 0;
        }
        int period = history.anyLong() ? history.period() : 0;
        if (period > 0 && (missing == 0 || history.predicted(period, 0) == carriedLength)) {
            int ahead = missing == 0 ? 0 : 1;
            int size = missing;
            for (int i = 0; i < MAX_PREDICTED && size < READ_TARGET; i++) {
                int next = history.predicted(period, ahead++);
                if (size + next > READ_TARGET && next >= ALIGN_FROM) {
                    break; // beyond the target only for a short FPDU
                }
                size += next;
            }
            if (size > 0) {
                return size;
            }
        }
        int frame = missing > 0 ? carriedLength : history.size() > 0 ? history.last(1) : 0;
        return readSize(missing, frame, false);
    }

    /**
     * The read size that ends on an FPDU boundary if every FPDU is {@code frameLength} octets long: {@code missing}
     * octets of the FPDU the last read ended inside (0 if none), then whole FPDUs of {@code frameLength} octets up
     * to {@link #READ_TARGET}, at least one when nothing is missing; 0 (the wrapped allocator decides) when FPDUs
     * are short or carry markers.
     */
    static int readSize(int missing, int frameLength, boolean markers) {
        if (markers || frameLength < ALIGN_FROM || missing < 0) {
            return 0;
        }
        int frames = missing >= READ_TARGET ? 0 : (READ_TARGET - missing) / frameLength;
        if (missing == 0) {
            frames = Math.max(1, frames);
        }
        return missing + frames * frameLength;
    }

    private int nextReadSize() {
        FpduDecoder d = decoder;
        return d == null ? 0 : d.nextReadSize();
    }

    @Override
    public Handle newHandle() {
        return new SizedHandle(wrapped.newHandle());
    }

    /** The wrapped allocator's handle, with the size of each buffer set by the FPDUs where they say. */
    private final class SizedHandle extends DelegatingHandle implements ExtendedHandle {

        SizedHandle(Handle delegate) {
            super(delegate);
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            int size = nextReadSize();
            return size > 0 ? alloc.ioBuffer(size) : delegate().allocate(alloc);
        }

        @Override
        public int guess() {
            int size = nextReadSize();
            return size > 0 ? size : delegate().guess();
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            Handle d = delegate();
            return d instanceof ExtendedHandle e ? e.continueReading(maybeMoreDataSupplier) : d.continueReading();
        }
    }
}
