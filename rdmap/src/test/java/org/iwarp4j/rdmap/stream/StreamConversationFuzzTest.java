package org.iwarp4j.rdmap.stream;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;
import org.iwarp4j.rdmap.stream.RdmapOperation.AtomicFetchAdd;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaRead;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaWrite;
import org.iwarp4j.rdmap.stream.RdmapOperation.Send;
import org.iwarp4j.testkit.fuzz.LeakCheckingAllocator;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.LOCAL_WRITE;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_ATOMIC;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_READ;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_WRITE;

/**
 * A stateful target: one side of a connection — RDMAP stream, DDP, MPA's FPDU framing both ways —
 * driven by a script the fuzzer writes, interleaving what the local application does (post receives,
 * Writes, Reads, Sends, atomics, flushes) with what a fuzzed peer sends (raw octets on the wire, through
 * the real {@link FpduReader}, with or without CRC and markers). Then the stream is closed.
 *
 * <p>What must hold for every script: an operation is refused only as documented (IllegalArgument or
 * IllegalState); the wire either decodes or fails with an {@link MpaException} (the connection would
 * close); every FPDU we send is read back by our own reader; no write outside a region the peer may
 * write, the read-only region untouched; at most one Terminate sent, nothing after it; no internal
 * error; after close every posted receive and every accepted operation has completed exactly once;
 * nothing leaks ({@link LeakCheckingAllocator}, per input).
 *
 * <p>The five regions are registered once for the run ({@link #memory}) and restored before every input
 * (their octets and guards, their validity: {@link TestMemory#restore()}), as the queue-pair target's rig
 * does; what carries protocol state — the stream with its DDP sender and receiver, its listener, the FPDU
 * readers and writer, the completions expected — is new for every input, so an input replayed alone runs as
 * it ran in the campaign. That no region's memory is held after close (a retained slice of it unreleased) is
 * checked per input, as the allocator checks everything else.
 */
class StreamConversationFuzzTest {

    private static final LeakCheckingAllocator ALLOC = new LeakCheckingAllocator();
    /** The regions' memory, which outlives the inputs: {@link TestMemory#unshared()} checks it instead. */
    private static final LeakCheckingAllocator LASTING = new LeakCheckingAllocator();
    private static final RdmapStreamConfig CONFIG = RdmapStreamConfig.defaults().withReadDepths(4, 4);
    private static final int REGION_STAG = 0x1a2b3c4d;
    private static final int LOCAL_STAG = 0x0a0b0c0d;
    private static final int READ_ONLY_STAG = 0x11223344;
    private static final int ATOMIC_STAG = 0x99aabbcc;
    private static final int OTHER_PD_STAG = 0x77;
    private static final byte[] READ_ONLY_OCTETS = Endpoint.pattern(256, 5);

    /** The regions between inputs; null while an input runs, and after one that failed (then registered anew). */
    private static TestMemory memory;

    @FuzzTest
    void conversation(FuzzedDataProvider data) {
        TestMemory m = memory != null ? memory : register();
        memory = null;
        m.restore();
        try {
            converse(data, m);
            if (!m.unshared()) {
                throw new AssertionError("a region's memory is still held after close");
            }
            memory = m;
        } finally {
            if (memory == null) {
                m.close();
            }
        }
        ALLOC.assertNoLeaks();
    }

    private static void converse(FuzzedDataProvider data, TestMemory m) {
        boolean crc = data.consumeBoolean();
        boolean markers = data.consumeBoolean();
        Endpoint e = new Endpoint(CONFIG, data.consumeInt(64, 1500), new LockingAtomicExecutor(), ALLOC, m);
        Map<Long, Integer> expected = new HashMap<>(); // work request id -> completions expected (1)
        try {
            TestRegion readOnly = m.region(READ_ONLY_STAG);
            FpduReader in = new FpduReader(crc, markers, 65535, 0);
            FpduWriter out = new FpduWriter(crc, markers, 65535, 0);
            FpduReader ours = new FpduReader(crc, markers, 65535, 0);
            ByteBuf wire = ALLOC.buffer();
            ByteBuf sent = ALLOC.buffer();
            try {
                boolean connected = true;
                long id = 100;
                int steps = 0;
                while (data.remainingBytes() > 0 && steps++ < 64) {
                    switch (data.consumeInt(0, 7)) {
                        case 0, 1 -> connected = connected
                                && peerSends(e, in, wire, data.consumeBytes(data.consumeInt(1, 400)));
                        case 2 -> {
                            if (post(e, id, data.consumeInt(0, 600))) {
                                expected.put(id, 1);
                            }
                            id++;
                        }
                        case 3 -> submit(e, expected, id++, new RdmaWrite(id - 1, data.consumeInt(),
                                data.consumeLong(), ALLOC.buffer(8).writeLong(id), data.consumeBoolean()));
                        case 4 -> submit(e, expected, id++, new RdmaRead(id - 1, LOCAL_STAG,
                                0x2000 + data.consumeInt(0, 9000), data.consumeInt(0, 9000), data.consumeInt(),
                                data.consumeLong(), data.consumeBoolean()));
                        case 5 -> submit(e, expected, id++,
                                Send.of(id - 1, ALLOC.buffer(16).writeZero(data.consumeInt(0, 16))));
                        case 6 -> submit(e, expected, id++, new AtomicFetchAdd(id - 1, data.consumeInt(),
                                data.consumeLong() & ~7L, data.consumeLong(), 0, data.consumeBoolean()));
                        default -> transmit(e, out, ours, sent);
                    }
                    checkTerminates(e);
                }
                transmit(e, out, ours, sent);
                checkTerminates(e);
                if (!m.guardsIntact()) {
                    throw new AssertionError("a write outside a region");
                }
                if (!Arrays.equals(readOnly.bytes(), READ_ONLY_OCTETS)) {
                    throw new AssertionError("the read-only region was written");
                }
                for (Throwable t : e.listener.fatalErrors) {
                    if (String.valueOf(t.getMessage()).contains("internal error")) {
                        throw new AssertionError("internal error", t);
                    }
                }
            } finally {
                wire.release();
                sent.release();
            }
        } finally {
            e.close();
        }
        checkCompletions(e, expected);
    }

    /** The five regions, in memory of their own ({@link #LASTING}), kept for {@link TestMemory#restore()}. */
    private static TestMemory register() {
        TestMemory m = new TestMemory(LASTING);
        m.register(REGION_STAG, 0x100000, 4096, EnumSet.of(REMOTE_WRITE), Endpoint.PD);
        m.register(LOCAL_STAG, 0x2000, 8192, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
        TestRegion readOnly = m.register(READ_ONLY_STAG, 0x4000, 256, EnumSet.of(REMOTE_READ), Endpoint.PD);
        readOnly.memory.setBytes(0, READ_ONLY_OCTETS);
        m.register(ATOMIC_STAG, 0, 128, EnumSet.of(REMOTE_ATOMIC), Endpoint.PD);
        m.register(OTHER_PD_STAG, 0, 64, EnumSet.of(REMOTE_WRITE), Endpoint.PD + 1);
        m.keep();
        LASTING.forget();
        return m;
    }

    /** Whatever an input did to the regions, restored they are as registered: the next input runs as if alone. */
    @Test
    void restoredMemoryIsAsRegistered() {
        TestMemory used = register();
        TestMemory fresh = register();
        try {
            TestRegion written = used.region(REGION_STAG);
            written.memory.setByte(7, 1).setIndex(3, 9);
            written.memory.unwrap().setByte(0, 0); // a guard
            used.region(READ_ONLY_STAG).memory.setByte(0, 0);
            used.invalidate(used.region(ATOMIC_STAG));
            ByteBuf held = used.region(LOCAL_STAG).memory.retainedSlice(0, 8);
            assertThat(used.guardsIntact()).isFalse();
            assertThat(used.unshared()).isFalse();
            held.release();
            used.restore();
            assertThat(used.guardsIntact()).isTrue();
            assertThat(used.unshared()).isTrue();
            assertThat(used.invalidated).isEmpty();
            for (int stag : new int[] {REGION_STAG, LOCAL_STAG, READ_ONLY_STAG, ATOMIC_STAG, OTHER_PD_STAG}) {
                TestRegion r = used.region(stag);
                TestRegion f = fresh.region(stag);
                assertThat(r.isValid()).isTrue();
                assertThat(r.bytes()).isEqualTo(f.bytes());
                assertThat(r.memory.readerIndex()).isEqualTo(f.memory.readerIndex());
                assertThat(r.memory.writerIndex()).isEqualTo(f.memory.writerIndex());
                for (TaggedBufferAccess access : TaggedBufferAccess.values()) {
                    assertThat(r.grants(access)).isEqualTo(f.grants(access));
                }
            }
        } finally {
            used.close();
            fresh.close();
        }
    }

    /** The peer's octets through the real FPDU reader; false once MPA failed (the connection closes). */
    private static boolean peerSends(Endpoint e, FpduReader reader, ByteBuf wire, byte[] octets) {
        wire.writeBytes(octets);
        try {
            ByteBuf ulpdu;
            while ((ulpdu = reader.read(wire, ALLOC)) != null) {
                e.stream.receive(ulpdu);
            }
            wire.discardReadBytes();
            return true;
        } catch (MpaException mpaError) {
            wire.clear();
            return false;
        }
    }

    private static boolean post(Endpoint e, long id, int capacity) {
        try {
            e.postReceive(id, capacity); // the endpoint releases the buffer at close
            return true;
        } catch (IllegalStateException full) {
            return false;
        }
    }

    private static void submit(Endpoint e, Map<Long, Integer> expected, long id, RdmapOperation op) {
        try {
            e.stream.submit(op);
            expected.put(id, 1);
        } catch (IllegalArgumentException | IllegalStateException refused) {
            // documented refusals; the stream released the data
        }
    }

    /** Writes what the stream wants to send, frames it as FPDUs and reads it back with our own reader. */
    private static void transmit(Endpoint e, FpduWriter writer, FpduReader reader, ByteBuf sent) {
        e.flush();
        byte[] ulpdu;
        while ((ulpdu = e.llp.takeBytes()) != null) {
            // The parts straight onto the wire, as the MPA handler writes them: encode's composite buffer would
            // cost a stack trace per part (Netty's PARANOID detector tracks composites), most of a run's time.
            writer.write(ALLOC.buffer(ulpdu.length).writeBytes(ulpdu), null, ALLOC, (part, last) -> {
                sent.writeBytes(part, part.readerIndex(), part.readableBytes());
                part.release();
            });
            ByteBuf back = reader.read(sent, ALLOC);
            if (back == null || back.readableBytes() != ulpdu.length) {
                throw new AssertionError("our own FPDU does not read back: " + back);
            }
            back.release();
            sent.discardReadBytes();
        }
    }

    private static void checkTerminates(Endpoint e) {
        if (e.listener.terminatesSent.size() > 1) {
            throw new AssertionError(e.listener.terminatesSent.size() + " Terminates sent");
        }
        if (!e.listener.terminatesSent.isEmpty() && e.stream.writeNextSegment()) {
            throw new AssertionError("a segment after the Terminate");
        }
    }

    private static void checkCompletions(Endpoint e, Map<Long, Integer> expected) {
        Map<Long, Integer> seen = new HashMap<>();
        e.listener.sends.forEach(s -> seen.merge(s.id(), 1, Integer::sum));
        e.listener.receives.forEach(r -> seen.merge(r.id(), 1, Integer::sum));
        if (!seen.equals(expected)) {
            throw new AssertionError("completions " + seen + ", expected one each of " + expected.keySet());
        }
    }
}
