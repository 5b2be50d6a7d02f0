package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import org.iwarp4j.mpa.TestBuffers;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reader's ULPDU when markers fall inside it (RFC 5044 §4.3): the octets between markers, delivered as
 * a composite whose components reference the input buffer itself (one reference each), never copied. The
 * input's indexes and reference count come out as if the reader had only consumed the FPDU.
 */
class FpduReaderMarkerRunsTest {

    private static final int ULPDU = 3000; // from offset 0: a leading marker, then 5 inner markers inside the ULPDU

    @Test
    void ulpduSplitByMarkersIsTheOriginalOctetsInRunsBetweenTheMarkers() {
        byte[] ulpdu = FpduPropertyTest.randomBytes(7, ULPDU);
        byte[] wire = FpduPropertyTest.referenceEncode(0, ulpdu);
        ByteBuf in = TestBuffers.direct(wire);
        in.writeBytes(new byte[] {1, 2, 3}); // the start of the next FPDU, not consumed
        int writerBefore = in.writerIndex();
        FpduReader reader = new FpduReader(true, true, 65535, 0);

        ByteBuf read = reader.read(in, TestBuffers.ALLOC);
        try {
            assertThat(read).isInstanceOf(CompositeByteBuf.class);
            CompositeByteBuf composite = (CompositeByteBuf) read;
            // runs: content index 2 up to the first inner marker at 508, then 508 octets between markers
            int inner = FpduLayout.innerMarkerCount(0, ULPDU);
            assertThat(inner).isEqualTo(5);
            assertThat(composite.numComponents()).isEqualTo(inner + 1);
            assertThat(composite.internalComponent(0).readableBytes()).isEqualTo(508 - 2);
            assertThat(composite.internalComponent(1).readableBytes()).isEqualTo(FpduLayout.CONTENT_PER_MARKER);
            assertThat(ByteBufUtil.getBytes(read)).isEqualTo(ulpdu);
            // every run is a view of the input at its place on the wire: writing the input shows through
            int secondRunOnWire = FpduLayout.MARKER_LENGTH + 508 + FpduLayout.MARKER_LENGTH;
            in.setByte(secondRunOnWire, ~ulpdu[508 - 2]);
            assertThat(read.getByte(508 - 2)).isEqualTo((byte) ~ulpdu[508 - 2]);
            assertThat(in.refCnt()).isEqualTo(1 + composite.numComponents());
            assertThat(in.readerIndex()).isEqualTo(wire.length);
            assertThat(in.writerIndex()).isEqualTo(writerBefore);
        } finally {
            read.release();
        }
        assertThat(in.refCnt()).isEqualTo(1);
        in.release();
    }

    @Test
    void ulpduFromAReadOnlyWindowOfALargerBufferKeepsTheWindowsIndexes() {
        byte[] ulpdu = FpduPropertyTest.randomBytes(8, 1200);
        int offset = 1024 - 8; // a marker 8 octets into the FPDU, 6 octets into the ULPDU
        byte[] wire = FpduPropertyTest.referenceEncode(offset, ulpdu);
        ByteBuf backing = TestBuffers.direct(new byte[16 + wire.length + 16]);
        backing.setBytes(16, wire);
        ByteBuf in = backing.slice(16, wire.length).retain();
        backing.release();
        FpduReader reader = new FpduReader(false, true, 65535, offset);

        ByteBuf read = reader.read(in, TestBuffers.ALLOC);
        assertThat(TestBuffers.drain(read)).isEqualTo(ulpdu);
        assertThat(in.readerIndex()).isEqualTo(wire.length);
        assertThat(in.writerIndex()).isEqualTo(wire.length);
        assertThat(in.refCnt()).isEqualTo(1);
        in.release();
    }

    @Test
    void ulpduOfAHeapStreamReadsThroughNioBuffersAsTheDdpPlacementDoes() {
        byte[] ulpdu = FpduPropertyTest.randomBytes(9, 2000);
        byte[] wire = FpduPropertyTest.referenceEncode(0, ulpdu);
        ByteBuf in = TestBuffers.heap(wire);
        FpduReader reader = new FpduReader(true, true, 65535, 0);

        ByteBuf read = reader.read(in, TestBuffers.ALLOC);
        try {
            ByteBuffer gathered = ByteBuffer.allocate(ulpdu.length);
            for (ByteBuffer b : read.nioBuffers()) {
                gathered.put(b);
            }
            assertThat(gathered.array()).isEqualTo(ulpdu);
        } finally {
            read.release();
        }
        in.release();
    }
}
