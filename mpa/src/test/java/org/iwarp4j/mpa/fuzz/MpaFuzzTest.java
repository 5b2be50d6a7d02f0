package org.iwarp4j.mpa.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.fpdu.FpduDissector;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.iwarp4j.testkit.fuzz.LeakCheckingAllocator;

import java.util.Arrays;

/**
 * Jazzer fuzz targets for the FPDU reader and the Request/Reply parser. In the normal build they run
 * in regression mode over the committed seed corpus
 * ({@code src/test/resources/org/iwarp4j/mpa/fuzz/MpaFuzzTestInputs/<method>/}, built from the
 * golden vectors); {@code JAZZER_FUZZ=1} fuzzes for real. Every buffer comes from a
 * {@link LeakCheckingAllocator}, so an input that leaks one fails at once.
 */
class MpaFuzzTest {

    private static final LeakCheckingAllocator ALLOC = new LeakCheckingAllocator();

    /** Input: flags octet (CRC, markers), 2-octet stream offset, then the stream. */
    @FuzzTest
    void fpduReader(FuzzedDataProvider data) {
        int flags = data.consumeByte();
        int offset = (data.consumeShort() & 0xFFFF) << 2;
        byte[] stream = data.consumeRemainingAsBytes();
        boolean crc = (flags & 1) != 0;
        boolean markers = (flags & 2) != 0;
        FpduReader reader = new FpduReader(crc, markers, 65535, offset);
        ByteBuf in = ALLOC.directBuffer(Math.max(1, stream.length)).writeBytes(stream);
        try {
            ByteBuf u;
            while ((u = reader.read(in, ALLOC)) != null) {
                u.release();
            }
            if (in.readableBytes() >= reader.maxFpduWireLength()) {
                throw new AssertionError("buffered " + in.readableBytes() + " octets");
            }
        } catch (MpaException e) {
            if (e.error() != MpaError.CRC_ERROR && e.error() != MpaError.MARKER_MISMATCH) {
                throw new AssertionError("unexpected error code", e);
            }
        } finally {
            in.release();
        }
        ALLOC.assertNoLeaks();
        // the dissector must never throw either
        new FpduDissector(crc, markers, offset).dissect(stream);
    }

    /** Input: any octets as an MPA startup stream. */
    @FuzzTest
    void mpaFrameParser(byte[] bytes) {
        ByteBuf in = ALLOC.heapBuffer(Math.max(1, bytes.length)).writeBytes(bytes);
        try {
            MpaFrame f = MpaFrameCodec.parse(in);
            if (in.readerIndex() != 0) {
                throw new AssertionError("parse consumed input");
            }
            if (f != null && !Arrays.equals(f.toByteArray(), Arrays.copyOf(bytes, f.length()))) {
                throw new AssertionError("re-encoding differs: " + f);
            }
        } catch (MpaException e) {
            if (e.error() != MpaError.INVALID_STARTUP_FRAME) {
                throw new AssertionError("unexpected error code", e);
            }
        } finally {
            in.release();
        }
        ALLOC.assertNoLeaks();
    }
}
