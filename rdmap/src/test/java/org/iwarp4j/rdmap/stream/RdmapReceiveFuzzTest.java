package org.iwarp4j.rdmap.stream;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import org.iwarp4j.rdmap.stream.RdmapOperation.AtomicCompareSwap;
import org.iwarp4j.rdmap.stream.RdmapOperation.AtomicFetchAdd;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaRead;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;
import org.iwarp4j.testkit.fuzz.LeakCheckingAllocator;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.LOCAL_WRITE;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_ATOMIC;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_READ;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_WRITE;

/**
 * Coverage-guided fuzzing of the whole receive path (DDP checks and placement, RDMAP validation,
 * responses, Terminate generation and parsing): random ULPDUs go into an {@link RdmapStream} whose
 * regions are framed by guard octets, with receives posted and Reads/atomics outstanding so that
 * responses can match. For every input: no exception escapes, nothing leaks (the testkit's leak
 * extension fails the invocation), no octet outside a region that the peer may write changes, the
 * read-only region is never written, at most one Terminate is sent and nothing after it, and no
 * error is an internal one.
 *
 * <p>Input: segments as a 2-octet big-endian length and that many octets. The seed corpus
 * ({@code RdmapReceiveFuzzTestInputs/receivePath/}) holds every {@code rdmap/} and {@code markers/}
 * golden vector's ULPDU, the golden conversations per direction, and a few hand-made streams; in the
 * normal build the seeds run as regression tests, {@code JAZZER_FUZZ=1} fuzzes.
 *
 * <p>Every buffer (regions, receives, segments, what the stream sends) comes from a
 * {@link LeakCheckingAllocator}, checked after each input: Netty's PARANOID detector would record a
 * stack trace on every access, which made this target run at 15 inputs/s.
 */
class RdmapReceiveFuzzTest {

    private static final LeakCheckingAllocator ALLOC = new LeakCheckingAllocator();

    @FuzzTest(maxDuration = "60s")
    void receivePath(byte[] input) {
        try (Harness h = new Harness()) {
            h.feed(input);
            h.check();
        }
        ALLOC.assertNoLeaks();
    }

    /** The committed seeds are meaningful: they deliver Sends, place Writes, answer Reads and terminate. */
    @Test
    void seedCorpusExercisesTheEngine() throws Exception {
        Path dir = Path.of(RdmapReceiveFuzzTest.class.getResource("RdmapReceiveFuzzTestInputs/receivePath").toURI());
        int seeds = 0;
        int receives = 0;
        int writes = 0;
        int responses = 0;
        int terminatesSent = 0;
        int terminatesReceived = 0;
        int completions = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                try (Harness h = new Harness()) {
                    h.feed(Files.readAllBytes(f));
                    h.check();
                    seeds++;
                    receives += (int) h.e.listener.receives.stream()
                            .filter(r -> r.status() == OperationStatus.SUCCESS).count();
                    writes += h.e.listener.writesPlaced;
                    responses += h.e.listener.readRequests + h.e.listener.atomicRequests;
                    terminatesSent += h.e.listener.terminatesSent.size();
                    terminatesReceived += h.e.listener.terminatesReceived.size();
                    completions += (int) h.e.listener.sends.stream()
                            .filter(s -> s.status() == OperationStatus.SUCCESS).count();
                }
                ALLOC.assertNoLeaks();
            }
        }
        assertThat(seeds).isEqualTo(52);
        assertThat(receives).isGreaterThanOrEqualTo(10);
        assertThat(writes).isGreaterThanOrEqualTo(5);
        assertThat(responses).isGreaterThanOrEqualTo(5);
        assertThat(terminatesSent).isGreaterThanOrEqualTo(5);
        assertThat(terminatesReceived).isGreaterThanOrEqualTo(5);
        assertThat(completions).isGreaterThanOrEqualTo(3); // Read / Atomic Responses of the vectors matched
    }

    private static final class Harness implements AutoCloseable {
        final Endpoint e = new Endpoint(RdmapStreamConfig.defaults().withReadDepths(4, 4), 1500,
                new LockingAtomicExecutor(), ALLOC);
        final TestRegion readOnly;
        final byte[] readOnlyBefore;

        Harness() {
            TestMemory m = e.memory;
            m.register(0x1a2b3c4d, 0x100000, 4096, EnumSet.of(REMOTE_WRITE), Endpoint.PD);
            m.register(0x00c0ffee, 0x10000, 2048, EnumSet.of(REMOTE_WRITE), Endpoint.PD);
            m.register(0x0a0b0c0d, 0x2000, 8192, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
            readOnly = m.register(0x11223344, 0x4000, 256, EnumSet.of(REMOTE_READ), Endpoint.PD);
            readOnly.memory.setBytes(0, Endpoint.pattern(256, 5));
            readOnlyBefore = readOnly.bytes();
            m.register(0x99aabbcc, 0, 128, EnumSet.of(REMOTE_ATOMIC), Endpoint.PD);
            m.register(0x5e6f7081, 0, 16, EnumSet.of(REMOTE_WRITE), Endpoint.PD);
            m.register(0x0badcafe, 0, 16, EnumSet.of(REMOTE_WRITE), Endpoint.PD);
            m.register(0x77, 0, 64, EnumSet.of(REMOTE_WRITE), Endpoint.PD + 1);
            for (int i = 0; i < 8; i++) {
                e.postReceive(i, i == 7 ? 0 : 512);
            }
            // outstanding requests, matching the golden Read and Atomic Responses
            e.stream.submit(new RdmaRead(1, 0x0a0b0c0d, 0x2000, 100, 0x11223344, 0x4000, false));
            e.stream.submit(new AtomicFetchAdd(2, 0x99aabbcc, 0x40, 5, 0, false));
            e.stream.submit(new AtomicCompareSwap(3, 0x99aabbcc, 0x48, 0x64, -1L, 0x1111111111111111L, -1L, false));
            e.flush();
            e.llp.discard();
        }

        void feed(byte[] input) {
            int i = 0;
            while (i < input.length) {
                int length = i + 1 < input.length ? ((input[i] & 0xFF) << 8 | (input[i + 1] & 0xFF)) : 0;
                i = Math.min(input.length, i + 2);
                int take = Math.min(length, input.length - i);
                ByteBuf segment = ALLOC.buffer(take).writeBytes(input, i, take);
                i += take;
                e.stream.receive(segment);
                int terminatesBefore = e.listener.terminatesSent.size();
                long before = e.llp.written();
                e.flush();
                if (terminatesBefore > 0) {
                    assertThat(e.llp.written()).as("nothing after the Terminate").isEqualTo(before);
                }
                e.llp.discard(); // drop what was sent
            }
        }

        void check() {
            assertThat(e.memory.guardsIntact()).as("no write outside a region").isTrue();
            assertThat(readOnly.bytes()).as("read-only region untouched").isEqualTo(readOnlyBefore);
            assertThat(e.listener.terminatesSent).hasSizeLessThanOrEqualTo(1);
            assertThat(e.listener.fatalErrors)
                    .noneMatch(t -> String.valueOf(t.getMessage()).contains("internal error"));
            if (!e.listener.terminatesSent.isEmpty()) {
                assertThat(e.stream.writeNextSegment()).isFalse();
            }
        }

        @Override
        public void close() {
            e.close();
        }
    }
}
