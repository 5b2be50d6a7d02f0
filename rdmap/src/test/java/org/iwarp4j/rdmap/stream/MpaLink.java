package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.send.LlpSegmentWriter;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.fpdu.FpduWriter;

/**
 * One direction of a test connection through MPA's real FPDU codec: segments are framed by
 * {@link FpduWriter} (CRC, optionally markers) into a byte queue ("the wire"); {@link #deliver} moves any
 * number of those bytes to the receiver, whose {@link FpduReader} cuts them back into ULPDUs for the
 * receiving stream — so every split of the byte stream is exercised.
 */
final class MpaLink implements LlpSegmentWriter, AutoCloseable {

    int mulpdu;
    private final FpduWriter writer;
    private final FpduReader reader;
    private final ByteBuf wire = ByteBufAllocator.DEFAULT.buffer();
    private final ByteBuf inbound = ByteBufAllocator.DEFAULT.buffer();
    long produced;

    MpaLink(int mulpdu, boolean markers) {
        this.mulpdu = mulpdu;
        this.writer = new FpduWriter(true, markers, 65535, 0);
        this.reader = new FpduReader(true, markers, 65535, 0);
    }

    @Override
    public int mulpdu() {
        return mulpdu;
    }

    @Override
    public void writeSegment(ByteBuf header, ByteBuf payload) {
        writer.write(header, payload, ByteBufAllocator.DEFAULT, (part, last) -> {
            wire.writeBytes(part, part.readerIndex(), part.readableBytes());
            part.release();
        });
        produced++;
    }

    /** Flips at each segment offered in place: every other one that can be is framed where it lies. */
    private boolean inPlaceTurn;

    /**
     * Every other segment offered in place that no marker splits is written straight into the wire and framed there
     * (as MPA's encoder frames small FPDUs in its gathering buffer); the others come as buffers: every conversation
     * goes through both paths.
     */
    @Override
    public boolean writeSegmentInPlace(int length, SegmentContent content) {
        inPlaceTurn = !inPlaceTurn;
        int wireLength = writer.inPlaceWireLength(length);
        if (!inPlaceTurn || wireLength < 0) {
            return false;
        }
        wire.ensureWritable(wireLength);
        int start = wire.writerIndex();
        content.writeSegment(wire, start + writer.inPlacePrefixLength());
        writer.frameInPlace(wire, start, length);
        produced++;
        return true;
    }

    int pendingBytes() {
        return wire.readableBytes();
    }

    /** Moves up to {@code n} octets to the receiver and feeds every complete ULPDU to {@code to}. */
    int deliver(int n, RdmapStream to) {
        int take = Math.min(n, wire.readableBytes());
        inbound.writeBytes(wire, take);
        wire.discardSomeReadBytes();
        int ulpdus = 0;
        ByteBuf ulpdu;
        while (inbound.isReadable() && (ulpdu = reader.read(inbound, ByteBufAllocator.DEFAULT)) != null) {
            to.receive(ulpdu);
            ulpdus++;
        }
        inbound.discardSomeReadBytes();
        return ulpdus;
    }

    @Override
    public void close() {
        wire.release();
        inbound.release();
    }
}
