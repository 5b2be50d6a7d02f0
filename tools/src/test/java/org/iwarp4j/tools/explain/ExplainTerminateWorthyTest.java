package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.send.LlpSegmentWriter;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;
import org.iwarp4j.rdmap.stream.OperationStatus;
import org.iwarp4j.rdmap.stream.OperationType;
import org.iwarp4j.rdmap.stream.RdmapListener;
import org.iwarp4j.rdmap.stream.RdmapMemory;
import org.iwarp4j.rdmap.stream.RdmapStream;
import org.iwarp4j.rdmap.stream.RdmapStreamConfig;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Headers a receiver answers with a Terminate — golden vectors changed by hand, one field each — give an
 * {@code error} entry with that Terminate's Layer/EType/Code and exit status 1. The expected triples
 * are those of docs/protocol/errors.md §5; each variant is also fed to the real stack ({@link RdmapStream}, RFC 7306
 * on), which must answer with the same Terminate: explain decides with the stack's checks.
 */
class ExplainTerminateWorthyTest {

    /** A damaged segment and the Terminate docs/protocol/errors.md §5 says a receiver answers it with. */
    record Variant(String name, byte[] ulpdu, int layer, int etype, int code) {
        @Override
        public String toString() {
            return name + String.format(" -> 0x%x/0x%x/0x%02x", layer, etype, code);
        }
    }

    private static final int QN_OFFSET = 6;
    private static final int MSN_OFFSET = 10;
    private static final int MO_OFFSET = 14;
    private static final int TO_OFFSET = 6;
    private static final int SINK_TO_OFFSET = 18 + 4;
    private static final int SOURCE_TO_OFFSET = 18 + 20;
    private static final int ATOMIC_TO_OFFSET = 18 + 12;

    @TempDir
    Path dir;

    static Stream<Variant> variants() {
        byte[] write = ulpdu("fpdu-rdma-write");                 // c1 40 | STag | TO | 64 octets
        byte[] send = msn1(ulpdu("fpdu-send"));                  // 41 43 | 0 | QN 0 | MSN | MO | 12 octets
        byte[] readRequest = msn1(ulpdu("fpdu-rdma-read-request"));
        byte[] immediate = msn1(ulpdu("fpdu-immediate-data"));
        byte[] fetchAdd = msn1(ulpdu("fpdu-atomic-fetchadd-request"));
        byte[] atomicResponse = msn1(ulpdu("fpdu-atomic-response-1"));
        return Stream.of(
                // DDP (RFC 5041 §4.1, §7.2): DV must be 1, in either buffer model.
                new Variant("RDMA Write with DV=2", with(write, 0, 0xc2), 1, 1, 0x04),
                new Variant("RDMA Write with DV=0", with(write, 0, 0xc0), 1, 1, 0x04),
                new Variant("Send with DV=0", with(send, 0, 0x40), 1, 2, 0x06),
                new Variant("Send with DV=3", with(send, 0, 0x43), 1, 2, 0x06),
                // DDP §7.1 check 1: RDMAP uses queues 0..3.
                new Variant("Send on QN 4", withInt(send, QN_OFFSET, 4), 1, 2, 0x01),
                new Variant("Send on QN 0xffffffff", withInt(send, QN_OFFSET, -1), 1, 2, 0x01),
                // A segment must hold its whole header; the RFCs have no code: the stack says Local Catastrophic.
                new Variant("tagged segment of 13 octets", Arrays.copyOf(write, 13), 1, 0, 0x00),
                new Variant("untagged segment of 17 octets", Arrays.copyOf(send, 17), 1, 0, 0x00),
                new Variant("empty segment", new byte[0], 1, 0, 0x00),
                // RDMAP (RFC 5040 §4.1): RV must be 01b.
                new Variant("Send with RV=2", with(send, 1, 0x83), 0, 2, 0x05),
                new Variant("RDMA Write with RV=0", with(write, 1, 0x00), 0, 2, 0x05),
                // Opcodes 0xC-0xF are not assigned (RFC 5040 §4.2, RFC 7306 §4.1).
                new Variant("untagged opcode 0xc", with(send, 1, 0x4c), 0, 2, 0x06),
                new Variant("tagged opcode 0xf", with(write, 1, 0x4f), 0, 2, 0x06),
                // The T flag and QN of each opcode are fixed (RFC 5040 §4.2).
                new Variant("Send on a tagged segment", with(write, 1, 0x43), 0, 2, 0x06),
                new Variant("Terminate on a tagged segment", with(write, 1, 0x47), 0, 2, 0x06),
                new Variant("RDMA Write on an untagged segment", with(send, 1, 0x40), 0, 2, 0x06),
                new Variant("Send on QN 1", withInt(send, QN_OFFSET, 1), 0, 2, 0x06),
                new Variant("Read Request on QN 0", withInt(readRequest, QN_OFFSET, 0), 0, 2, 0x06),
                new Variant("Terminate opcode on QN 0", with(send, 1, 0x47), 0, 2, 0x06),
                new Variant("Atomic Response on QN 1", withInt(atomicResponse, QN_OFFSET, 1), 0, 2, 0x06),
                // RFC 7306 §6.2 [EXT-02]: exactly 8 octets of Immediate Data (docs/protocol/errors.md §5:
                // 0x0/0x2/0xFF).
                new Variant("Immediate Data of 7 octets", Arrays.copyOf(immediate, immediate.length - 1), 0, 2, 0xff),
                new Variant("Immediate Data of 9 octets", Arrays.copyOf(immediate, immediate.length + 1), 0, 2, 0xff),
                new Variant("Immediate Data with L=0", with(immediate, 0, 0x01), 0, 2, 0xff),
                // The fixed RDMAP headers arrive whole in one segment.
                new Variant("Read Request header cut to 20 octets", Arrays.copyOf(readRequest, 18 + 20), 0, 2, 0xff),
                new Variant("Read Request with 4 extra octets", Arrays.copyOf(readRequest, readRequest.length + 4), 0,
                2, 0xff),
                new Variant("Atomic Response of 11 octets", Arrays.copyOf(atomicResponse, 18 + 11), 0, 2, 0xff),
                new Variant("Atomic Request at MO 52", withInt(fetchAdd, MO_OFFSET, 52), 0, 2, 0xff),
                // RFC 7306 §5.1, §8.2 [EXT-04]: an atomic target must be 8-octet aligned.
                new Variant("FetchAdd at TO 0x44", withLong(fetchAdd, 18 + 12, 0x44), 0, 2, 0x07),
                // RFC 7306 §5.2.1 [EXT-10]: AOpCode 0x1 is reserved, 0x3-0xF unassigned.
                new Variant("Atomic Request with AOpCode 1", withInt(fetchAdd, 18, 1), 0, 2, 0x06),
                new Variant("Atomic Request with AOpCode 3", withInt(fetchAdd, 18, 3), 0, 2, 0x06),
                // RFC 5041 §7.1 check 5: TO + payload must not reach 2^64, decided before the STag and RDMAP.
                new Variant("RDMA Write at TO 2^64-16 with 64 octets", withLong(write, TO_OFFSET, -16L), 1, 1, 0x03),
                new Variant("RDMA Write of 1 octet at TO 2^64-1", withLong(Arrays.copyOf(write, 15), TO_OFFSET, -1L),
                        1, 1, 0x03),
                new Variant("RDMA Write with RV=0 at a wrapping TO", with(withLong(write, TO_OFFSET, -1L), 1, 0x00),
                        1, 1, 0x03),
                new Variant("Read Response with no Read outstanding at a wrapping TO",
                        with(withLong(write, TO_OFFSET, -8L), 1, 0x42), 1, 1, 0x03),
                // RFC 5041 §5.2: a message is shorter than 2^32 octets; §7.1 check 4 fails for every buffer.
                new Variant("Send at MO 0xfffffff8 with 13 octets", withInt(send, MO_OFFSET, 0xfffffff8), 1, 2, 0x05),
                new Variant("Terminate at MO 0xfffffffc with 4 octets",
                        withInt(ulpdu("fpdu-terminate-llp-crc"), MO_OFFSET, 0xfffffffc), 1, 2, 0x05),
                // RFC 5040 §7.2: a non-zero Read's Data Source TO + size must not wrap (Remote Protection 0x04).
                new Variant("Read Request whose source TO + 100 wraps", withLong(readRequest, SOURCE_TO_OFFSET, -100L),
                        0, 1, 0x04),
                // The Data Sink's wrap: iwarp4j's choice (the RFC leaves it to the requester), same code.
                new Variant("Read Request whose sink TO + 100 wraps", withLong(readRequest, SINK_TO_OFFSET, -1L),
                        0, 1, 0x04),
                // RFC 7306 §8.2: the target is validated as a Read's source; its aligned 8 octets end at 2^64.
                new Variant("FetchAdd at TO 0xfffffffffffffff8", withLong(fetchAdd, ATOMIC_TO_OFFSET, -8L),
                        0, 1, 0x04));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void explainReportsTheTerminateAReceiverSends(Variant v) {
        ExplainRun r = ExplainRun.json(dir, fpdu(v.ulpdu()), "--fpdu");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        List<Map<String, Object>> entries = r.entries();
        assertThat(entries).extracting(e -> e.get("type")).as(r.toString()).containsExactly("fpdu", "error");
        Map<String, Object> error = entries.get(1);
        assertThat(error).containsEntry("offset", 0L).containsEntry("layer", v.layer() == 1 ? "DDP" : "RDMAP")
                .containsEntry("code", (long) v.code());
        @SuppressWarnings("unchecked")
        Map<String, Object> terminate = (Map<String, Object>) error.get("terminate");
        assertThat(terminate).containsEntry("layer", (long) v.layer()).containsEntry("etype", (long) v.etype())
                .containsEntry("code", (long) v.code());
        assertThat((String) error.get("message")).isNotBlank();
        assertThat(entries.get(0)).containsKeys("ddp", "notes");

        ExplainRun text = ExplainRun.text(dir, fpdu(v.ulpdu()), "--fpdu");
        assertThat(text.out()).contains(String.format("#2  ERROR  %s 0x%X/0x%X/0x%02X ",
                v.layer() == 1 ? "DDP" : "RDMAP",
                v.layer(), v.etype(), v.code())).endsWith("1 frame (1 FPDU), 1 error.\n");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void theStackAnswersWithTheSameTerminate(Variant v) {
        Stack stack = Stack.receive(v.ulpdu());
        assertThat(stack.error).as("the stack's Terminate for " + v.name()).isNotNull();
        assertThat(new int[] {stack.error.layer().value(), stack.error.errorType().value(), stack.error.code()})
                .as(v.name() + ": stack says " + stack.error).containsExactly(v.layer(), v.etype(), v.code());
    }

    /** RFC 5040 §5.4: a Terminate ends the stream and is read whatever else is wrong with it, e.g. its RV. */
    @Test
    void aTerminateWithAnotherRdmapVersionIsReadNotAnswered() {
        byte[] terminate = with(ulpdu("fpdu-terminate-llp-crc"), 1, 0x07); // RV 0
        ExplainRun r = ExplainRun.json(dir, fpdu(terminate), "--fpdu");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.entries()).singleElement().satisfies(e -> assertThat(e).containsKey("rdmap"));
        Stack stack = Stack.receive(terminate);
        assertThat(stack.error).isNull();
        assertThat(stack.received).isNotNull();
    }

    /** Octets that look alarming but that no rule makes a receiver reject: explain, like the stack, accepts them. */
    static Stream<Variant> accepted() {
        byte[] write = ulpdu("fpdu-rdma-write");
        byte[] readRequest = msn1(ulpdu("fpdu-rdma-read-request"));
        return Stream.of(
                // RFC 5041 §5.2: STag and TO of a zero-length tagged segment are not checked.
                new Variant("zero-length RDMA Write at TO 2^64-1", withLong(Arrays.copyOf(write, 14), TO_OFFSET, -1L),
                        -1, -1, -1),
                // RFC 5040 §5.2: a zero-size Read is not validated, wherever its TOs point.
                new Variant("zero-size Read Request at TOs 2^64-1", withLong(withLong(withInt(readRequest, 18 + 12, 0),
                        SINK_TO_OFFSET, -1L), SOURCE_TO_OFFSET, -1L), -1, -1, -1),
                // RFC 5041 §4.1, RFC 5040 §4.1, §4.6: reserved bits and an unused Invalidate STag are ignored.
                new Variant("Send with DDP Rsvd bits, RDMAP Rsv bits and an Invalidate STag",
                        withInt(with(with(msn1(ulpdu("fpdu-send")), 0, 0x7d), 1, 0x73), 2, 0x12345678), -1, -1, -1),
                new Variant("Send ending at MO + length 2^32-1", withInt(Arrays.copyOf(msn1(ulpdu("fpdu-send")), 19),
                        MO_OFFSET, 0xfffffffe), -1, -1, -1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void explainFlagsNothingAReceiverAccepts(Variant v) {
        assertThat(SegmentCheck.verdict(v.ulpdu())).as(v.name()).isEmpty();
        ExplainRun r = ExplainRun.json(dir, fpdu(v.ulpdu()), "--fpdu");
        assertThat(r.entries()).extracting(e -> e.get("type")).as(r.toString()).containsExactly("fpdu");
    }

    @Test
    void theStackAcceptsWhatExplainAccepts() {
        // The last variant needs a 2^32-octet buffer to be placed; the stack reports what its 4 KiB buffer lacks.
        accepted().limit(3).forEach(v -> assertThat(Stack.receive(v.ulpdu()).error).as(v.name()).isNull());
        Variant last = accepted().reduce((a, b) -> b).orElseThrow();
        assertThat(Stack.receive(last.ulpdu()).error).isEqualTo(TerminateCause.DDP_INVALID_MO);
    }

    /** The verdict other tools ask for: same Terminate as explain's error entry, from the octets alone. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void theVerdictApiGivesTheSameTerminate(Variant v) {
        SegmentCheck.Violation verdict = SegmentCheck.verdict(v.ulpdu()).orElseThrow();
        assertThat(new int[] {verdict.layer(), verdict.errorType(), verdict.errorCode()}).as(v.name())
                .containsExactly(v.layer(), v.etype(), v.code());
        assertThat(verdict.found()).isNotBlank();
        assertThat(verdict.rfc()).startsWith("RFC ");
        // At an offset inside a larger buffer, whose indices it leaves alone.
        ByteBuf buffer = Unpooled.buffer(v.ulpdu().length + 10).writeZero(7).writeBytes(v.ulpdu()).writeZero(3);
        int reader = buffer.readerIndex();
        int writer = buffer.writerIndex();
        assertThat(SegmentCheck.verdict(buffer, 7, v.ulpdu().length)).contains(verdict);
        assertThat(buffer.readerIndex()).isEqualTo(reader);
        assertThat(buffer.writerIndex()).isEqualTo(writer);
    }

    /** The text output names the Terminate, what was found and the rule's RFC section. */
    @Test
    void aWrappingTaggedSegmentIsAnErrorWithItsTerminateAndRfcSection() {
        byte[] wrap = withLong(ulpdu("fpdu-rdma-write"), TO_OFFSET, -16L);
        String out = ExplainRun.text(dir, fpdu(wrap), "--fpdu").out();
        assertThat(out).contains("ERROR  DDP 0x1/0x1/0x03 TO wrap")
                .containsPattern("Terminate +0x1/0x1/0x03 +RFC 5041 §7\\.2 +DDP Tagged Buffer Error: TO wrap")
                .containsPattern("Found +TO 0xfffffffffffffff0 \\+ 64 octets reaches 2\\^64 +RFC 5041 §7\\.1");
        ExplainRun json = ExplainRun.json(dir, fpdu(wrap), "--fpdu");
        assertThat(json.entries().get(1)).containsEntry("message", "TO 0xfffffffffffffff0 + 64 octets reaches 2^64");
    }

    @Test
    void aReadRequestWhoseSourceWrapsIsARemoteProtectionError() {
        byte[] wrap = withLong(msn1(ulpdu("fpdu-rdma-read-request")), SOURCE_TO_OFFSET, -100L);
        String out = ExplainRun.text(dir, fpdu(wrap), "--fpdu").out();
        assertThat(out).contains("ERROR  RDMAP 0x0/0x1/0x04 TO wrap")
                .containsPattern("Found +the Data Source TO 0xffffffffffffff9c \\+ RDMA Read Message Size 100 reaches "
                        + "2\\^64 +RFC 5040 §7\\.2");
    }

    @Test
    void anUntaggedSegmentBeyond2To32IsMessageTooLong() {
        byte[] wrap = withInt(msn1(ulpdu("fpdu-send")), MO_OFFSET, 0xfffffff8);
        String out = ExplainRun.text(dir, fpdu(wrap), "--fpdu").out();
        assertThat(out).contains("ERROR  DDP 0x1/0x2/0x05 ")
                .containsPattern("Found +MO 4294967288 \\+ 13 octets reaches 2\\^32: no DDP message is that long"
                        + " +RFC 5041 §5\\.2, §7\\.1");
    }

    /**
     * RFC 5040 §4.8 has M, D and R announce what follows, but nothing makes a receiver reject a Terminate
     * that breaks it, and a Terminate is not answered with one (§5.4): a warning, no error, no Terminate.
     */
    @Test
    void aTerminateWhoseLayoutIsInconsistentIsAWarningNotAnError() {
        byte[] terminate = ulpdu("fpdu-terminate-llp-crc"); // 0x2/0x0/0x02, M=D=R=0, no copied header
        terminate[18 + 2] = 0x40;                           // D=1, but nothing follows
        assertThat(SegmentCheck.verdict(terminate)).isEmpty();
        ExplainRun r = ExplainRun.json(dir, fpdu(terminate), "--fpdu");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.entries()).singleElement().satisfies(e -> {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> notes = (List<Map<String, Object>>) e.get("notes");
            assertThat(notes).anySatisfy(n -> assertThat(n).containsEntry("rfc", "RFC 5040 §4.8")
                    .satisfies(m -> assertThat((String) m.get("text")).contains("layout is inconsistent")
                            .contains("D=1 but no DDP Segment Length")));
        });
        assertThat(ExplainRun.text(dir, fpdu(terminate), "--fpdu").out())
                .contains("warning: the Terminate's own layout");
        Stack stack = Stack.receive(terminate);
        assertThat(stack.error).isNull();
        assertThat(stack.received).isNotNull();
    }

    /** After the first Terminate-worthy segment a receiver drops the rest of the direction (RFC 5041 §7.1). */
    @Test
    void afterAnErrorLaterSegmentsAreNotedAsDropped() {
        byte[] bad = with(ulpdu("fpdu-send"), 1, 0x83);
        ExplainRun r = ExplainRun.json(dir,
                ExplainErrorTest.concat(fpdu(bad), GoldenVectors.named("fpdu-rdma-write").bytes(),
                fpdu(with(ulpdu("fpdu-rdma-write"), 0, 0xc2))), "--fpdu");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.entries()).extracting(e -> e.get("type")).containsExactly("fpdu", "error", "fpdu", "fpdu");
        for (int i : new int[] {2, 3}) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> notes = (List<Map<String, Object>>) r.entries().get(i).get("notes");
            assertThat(notes).singleElement().satisfies(n -> assertThat((String) n.get("text"))
                    .contains("not placed: the receiver stopped at the error at input offset 0"));
        }
    }

    /** An FPDU MPA does not deliver (bad CRC) is decoded but not checked: its only error is MPA's. */
    @Test
    void anFpduWithABadCrcIsNotCheckedAboveMpa() {
        byte[] fpdu = fpdu(with(ulpdu("fpdu-send"), 0, 0x40));
        fpdu[fpdu.length - 1] ^= 1;
        ExplainRun r = ExplainRun.json(dir, fpdu, "--fpdu");
        assertThat(r.entries()).extracting(e -> e.get("type"), e -> e.get("layer")).containsExactly(
                tuple("fpdu", null), tuple("error", "MPA"));
        assertThat(r.entries().get(0)).containsKeys("ddp", "rdmap");
        assertThat(ExplainRun.text(dir, fpdu, "--fpdu").out()).contains("Not handed to DDP");
    }

    // ------------------------------------------------------------------ octets

    static byte[] ulpdu(String vector) {
        return GoldenVectors.named(vector).hex("ulpdu_hex");
    }

    /** The FPDU around {@code ulpdu}: ULPDU_Length, ULPDU, PAD, CRC32c (RFC 5044 §4.1, §4.4; CRC sent LSB first). */
    static byte[] fpdu(byte[] ulpdu) {
        int pad = (4 - (2 + ulpdu.length) % 4) % 4;
        ByteBuffer b = ByteBuffer.allocate(2 + ulpdu.length + pad + 4);
        b.putShort((short) ulpdu.length).put(ulpdu).put(new byte[pad]);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
        return b.array();
    }

    static byte[] with(byte[] octets, int index, int value) {
        byte[] copy = octets.clone();
        copy[index] = (byte) value;
        return copy;
    }

    static byte[] withInt(byte[] octets, int index, int value) {
        byte[] copy = octets.clone();
        ByteBuffer.wrap(copy).putInt(index, value);
        return copy;
    }

    static byte[] withLong(byte[] octets, int index, long value) {
        byte[] copy = octets.clone();
        ByteBuffer.wrap(copy).putLong(index, value);
        return copy;
    }

    /**
     * The stack delivers messages in MSN order from 1 (RFC 5041 §5.3): a lone message must be MSN 1 to reach RDMAP's
     * later checks.
     */
    static byte[] msn1(byte[] untagged) {
        return withInt(untagged, MSN_OFFSET, 1);
    }

    /** A fresh RDMAP stream (defaults: RFC 7306 on, IRD 16) with one receive posted, fed one segment. */
    static final class Stack implements RdmapListener {
        TerminateCause error;
        Terminate received;

        static Stack receive(byte[] ulpdu) {
            Stack s = new Stack();
            LlpSegmentWriter llp = new LlpSegmentWriter() {
                @Override
                public int mulpdu() {
                    return 1500;
                }

                @Override
                public void writeSegment(ByteBuf header, ByteBuf payload) {
                    header.release();
                    payload.release();
                }
            };
            RdmapMemory memory = new RdmapMemory() {
                @Override
                public TaggedBuffer lookup(int stag) {
                    return null;
                }

                @Override
                public boolean invalidate(TaggedBuffer buffer) {
                    return false;
                }
            };
            RdmapStream stream = new RdmapStream(RdmapStreamConfig.defaults(), memory, new LockingAtomicExecutor(), llp,
                    ByteBufAllocator.DEFAULT, s);
            ByteBuf receive = ByteBufAllocator.DEFAULT.buffer(4096, 4096);
            try {
                stream.postReceive(1, new ByteBufUntaggedBuffer(receive));
                stream.receive(ByteBufAllocator.DEFAULT.buffer(Math.max(1, ulpdu.length)).writeBytes(ulpdu));
                while (stream.writeNextSegment()) {
                    // the Terminate, if any, goes to the LLP (and is released there)
                }
                s.error = stream.firstError() == null ? null : stream.firstError().cause();
                s.received = stream.terminateReceived();
                stream.close();
            } finally {
                receive.release();
            }
            return s;
        }

        @Override
        public void onReceiveComplete(long workRequestId, OperationStatus status, RdmapOpcode opcode, int byteLength,
                                      int invalidatedStag, long immediateData) {
        }

        @Override
        public void onSendComplete(long workRequestId, OperationType type, OperationStatus status, long byteLength,
                                   long atomicOriginalValue) {
        }

        @Override
        public void onTerminateReceived(Terminate terminate) {
        }

        @Override
        public void onFatalError(Throwable cause) {
        }
    }
}
