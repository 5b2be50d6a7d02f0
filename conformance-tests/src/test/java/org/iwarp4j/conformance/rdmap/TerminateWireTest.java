package org.iwarp4j.conformance.rdmap;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.PeerScripts;
import org.iwarp4j.conformance.support.RdmapUlpdus;
import org.iwarp4j.conformance.support.VerbsStack;
import org.iwarp4j.conformance.support.VerbsStack.Region;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.AsyncEvent;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.TerminateInfo;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.conformance.support.RdmapUlpdus.SEND;
import static org.iwarp4j.conformance.support.RdmapUlpdus.SEND_INV;
import static org.iwarp4j.conformance.support.RdmapUlpdus.SEND_SE_INV;
import static org.iwarp4j.conformance.support.RdmapUlpdus.atomicRequest;
import static org.iwarp4j.conformance.support.RdmapUlpdus.control;
import static org.iwarp4j.conformance.support.RdmapUlpdus.readRequest;
import static org.iwarp4j.conformance.support.RdmapUlpdus.send;
import static org.iwarp4j.conformance.support.RdmapUlpdus.terminate;
import static org.iwarp4j.conformance.support.RdmapUlpdus.terminateFor;
import static org.iwarp4j.conformance.support.RdmapUlpdus.untaggedQn0;
import static org.iwarp4j.conformance.support.RdmapUlpdus.write;
import static org.iwarp4j.conformance.support.DdpSegments.tagged;
import static org.iwarp4j.conformance.support.DdpSegments.untagged;
import static org.iwarp4j.conformance.support.DdpSegments.control;

/**
 * Every error an incoming message can cause, over a real socket: a scripted peer (playing a Linux-siw-like
 * Initiator: MPA Rev 2, CRC) sends the offending segment to the stack (verbs, as Responder), and the stack
 * must answer with exactly one Terminate — untagged QN 2, MSN 1, MO 0 — whose octets are built here from
 * the peer's own segment: Layer/EType/Code from the registries, M/D/R per RFC 5040 Fig 10, DDP Segment
 * Length = the offending ULPDU's length, the copied DDP header and, for a Read Request, the copied Read
 * Request header; then a FIN with nothing in between. Registered memory stays untouched, posted receives
 * complete in error, the user gets the Terminate as an async event.
 *
 * <p>Where our choice differs from Linux siw (interop/FINDINGS.md R2–R5) the test names our choice;
 * {@code SiwTerminateReceiveTest} checks we accept siw's variant.
 */
class TerminateWireTest {

    /** The stack under test (as Responder) with every kind of memory an error case needs. */
    static final class Subject implements AutoCloseable {
        final VerbsStack stack;
        final Region sink;
        final Region source;
        final Region localOnly;
        final Region atomic;
        final Region foreign;
        final Region recv;
        final Region revoked;
        final InetSocketAddress address;

        Subject(boolean rfc7306, int ird) {
            stack = new VerbsStack(b -> b.rfc7306(rfc7306).ird(ird));
            sink = stack.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            source = stack.region(256, Access.REMOTE_READ);
            for (int i = 0; i < 256; i++) {
                source.buf().put(i, (byte) i);
            }
            localOnly = stack.region(64, Access.LOCAL_WRITE);
            atomic = stack.region(64, Access.LOCAL_WRITE, Access.REMOTE_ATOMIC);
            ProtectionDomain other = stack.rnic.allocateProtectionDomain();
            ByteBuffer m = ByteBuffer.allocateDirect(64);
            foreign = new Region(other.register(m, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
                    Access.REMOTE_ATOMIC), m);
            recv = stack.region(64, Access.LOCAL_WRITE);
            revoked = stack.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            revoked.mr().close(); // RFC 5040 §8.1.1: revocation takes effect at once
            stack.receive(1, recv.sge(0, 16));
            stack.receive(2, recv.sge(16, 16));
            address = stack.listen(ListenOptions.builder(), AcceptOptions.defaults().withIrd(ird));
        }

        Subject() {
            this(true, 4);
        }

        /** An STag with a valid index and the wrong key (FINDINGS F2 ii'). */
        int wrongKey(Region r) {
            int s = r.stagValue();
            return (s & ~0xFF) | ((s + 1) & 0xFF);
        }

        /** Plays {@code peerSends} and expects exactly {@code expectedTerminate} then FIN. */
        void expectTerminate(byte[] expectedTerminate, byte[]... peerSends) {
            try (ScriptedPeer peer = PeerScripts.initiator(address, 4, 4)) {
                for (byte[] u : peerSends) {
                    peer.sendFpdu(u);
                }
                peer.expectFpdu().withUlpdu(expectedTerminate).and().expectFin().start();
                peer.waitForScriptToComplete(VerbsStack.WAIT);
            }
            assertAftermath(expectedTerminate);
        }

        /** Memory untouched, receives flushed in error, one TERMINATE_SENT event naming the Terminate. */
        void assertAftermath(byte[] expectedTerminate) {
            assertThat(sink.bytes(0, 64)).as("no octet placed").containsOnly(0);
            assertThat(localOnly.bytes(0, 64)).containsOnly(0);
            List<WorkCompletion> wcs = stack.recvCompletions(2);
            assertThat(wcs).allSatisfy(wc -> assertThat(wc.isSuccess()).isFalse());
            VerbsStack.awaitTrue(() -> !stack.asyncEvents().isEmpty(), "the TERMINATE_SENT event");
            AsyncEvent e = stack.asyncEvents().get(0);
            assertThat(e.type()).isEqualTo(AsyncEvent.Type.TERMINATE_SENT);
            TerminateInfo t = e.terminate().orElseThrow();
            assertThat(t.direction()).isEqualTo(TerminateInfo.Direction.SENT);
            assertThat(t.layer()).isEqualTo((expectedTerminate[18] & 0xF0) >>> 4);
            assertThat(t.errorType()).isEqualTo(expectedTerminate[18] & 0x0F);
            assertThat(t.errorCode()).isEqualTo(expectedTerminate[19] & 0xFF);
        }

        @Override
        public void close() {
            stack.close();
        }
    }

    /** One error case: what the peer sends (the last segment offends) and the Terminate it must get back. */
    record Case(String name, Function<Subject, byte[]> offending, Function<byte[], byte[]> terminate) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final byte[] P16 = Bytes.pattern(16, 0x10);

    static Case ddp(String name, int etype, int code, Function<Subject, byte[]> offending) {
        return new Case(name, offending, seg -> terminateFor(1, etype, code, seg, false));
    }

    static Case rdmap(String name, int etype, int code, boolean rdmaHeader, Function<Subject, byte[]> offending) {
        return new Case(name, offending, seg -> terminateFor(0, etype, code, seg, rdmaHeader));
    }

    static void run(Case c, Subject s) {
        byte[] segment = c.offending().apply(s);
        s.expectTerminate(c.terminate().apply(segment), segment);
    }

    // ------------------------------------------------------------------ DDP tagged buffer errors

    static Stream<Case> taggedCases() {
        return Stream.of(
                ddp("Write to an unknown STag -> 0x1/0x1/0x00", 1, 0x00, s -> write(0xdeadbe00, 0x1000, P16)),
                ddp("Write with a wrong key byte -> 0x1/0x1/0x00", 1, 0x00,
                        s -> write(s.wrongKey(s.sink), s.sink.to(0), P16)),
                ddp("Write beyond the region -> 0x1/0x1/0x01", 1, 0x01,
                s -> write(s.sink.stagValue(), s.sink.to(56), P16)),
                ddp("Write below the region -> 0x1/0x1/0x01", 1, 0x01,
                s -> write(s.sink.stagValue(), s.sink.to(0) - 1, P16)),
                ddp("Write without the remote-write right -> 0x1/0x1/0x00", 1, 0x00,
                        s -> write(s.localOnly.stagValue(), s.localOnly.to(0), P16)),
                ddp("Write to an STag of another PD -> 0x1/0x1/0x02", 1, 0x02,
                        s -> write(s.foreign.stagValue(), s.foreign.to(0), P16)),
                ddp("Write to a deregistered region -> 0x1/0x1/0x00", 1, 0x00,
                        s -> write(s.revoked.stagValue(), s.revoked.to(0), P16)),
                ddp("Write with DV=2 -> 0x1/0x1/0x04", 1, 0x04,
                        s -> tagged(control(true, true, 0, 2), control(0), s.sink.stagValue(), s.sink.to(0), P16)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("taggedCases")
    @Requirement({"RDMAP-07", "RDMAP-09", "RDMAP-10", "RDMAP-12", "RDMAP-13", "RDMAP-30", "RDMAP-31", "RDMAP-32",
            "DDP-30"})
    @DisplayName("RDMAP-07, RDMAP-09, RDMAP-10, RDMAP-12, RDMAP-13, RDMAP-30, RDMAP-31, RDMAP-32, DDP-30: an invalid "
    + "RDMA Write is not placed and answered by a DDP tagged-buffer Terminate with M=D=1, its ULPDU length and its "
    + "14-octet DDP header") void taggedBufferErrors(Case c) {
        try (Subject s = new Subject()) {
            run(c, s);
        }
    }

    // ------------------------------------------------------------------ Read Request errors (R=1)

    static Stream<Case> readCases() {
        return Stream.of(
                rdmap("unknown source STag -> 0x0/0x1/0x00", 1, 0x00, true,
                        s -> readRequest(1, 0x1000, 0x2000, 32, 0xdeadbe00, 0)),
                rdmap("source beyond the region -> 0x0/0x1/0x01", 1, 0x01, true,
                        s -> readRequest(1, 0x1000, 0x2000, 32, s.source.stagValue(), s.source.to(240))),
                rdmap("no remote-read right -> 0x0/0x1/0x02", 1, 0x02, true,
                        s -> readRequest(1, 0x1000, 0x2000, 32, s.localOnly.stagValue(), s.localOnly.to(0))),
                rdmap("source STag of another PD -> 0x0/0x1/0x03", 1, 0x03, true,
                        s -> readRequest(1, 0x1000, 0x2000, 32, s.foreign.stagValue(), s.foreign.to(0))),
                rdmap("sink TO + size wraps 2^64 -> 0x0/0x1/0x04", 1, 0x04, true,
                        s -> readRequest(1, 0x1000, 0xFFFF_FFFF_FFFF_FFF0L, 32, s.source.stagValue(), s.source.to(0))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readCases")
    @Requirement({"RDMAP-11", "RDMAP-12", "RDMAP-14", "RDMAP-30", "RDMAP-31", "RDMAP-32"})
    @DisplayName("RDMAP-11, RDMAP-12, RDMAP-14, RDMAP-30, RDMAP-31, RDMAP-32: an invalid Read Request gets no Read "
            + "Response but a Remote Protection Terminate with M=D=R=1, its DDP header and its 28-octet Read Request "
            + "header")
    void readRequestErrors(Case c) {
        try (Subject s = new Subject()) {
            run(c, s);
        }
    }

    @Test
    @Requirement({"RDMAP-07", "RDMAP-08", "RDMAP-09", "RDMAP-10", "RDMAP-11"})
    @DisplayName("RDMAP-07, RDMAP-08, RDMAP-09, RDMAP-10, RDMAP-11: the Terminate for the golden bad-STag Read Request "
            + "(MSN 4) is the golden FPDU octet for octet, CRC included")
    void goldenReadRequestTerminate() {
        byte[] request = GoldenVectors.named("fpdu-terminate-rr-invalid-stag").hex("term.terminated_ddp_header_hex");
        byte[] rdmaHeader =
                GoldenVectors.named("fpdu-terminate-rr-invalid-stag").hex("term.terminated_rdma_header_hex");
        byte[] offending = Bytes.concat(request, rdmaHeader);
        byte[] expectedFpdu = GoldenVectors.named("fpdu-terminate-rr-invalid-stag").bytes();
        try (Subject s = new Subject(); ScriptedPeer peer = PeerScripts.initiator(s.address, 4, 4)) {
            // MSN 1-3: zero-length Reads, which are not validated and answered by zero-length Read Responses
            for (int msn = 1; msn <= 3; msn++) {
                peer.sendFpdu(readRequest(msn, 0x77, 0x1000L * msn, 0, 0xdeadbe00, 0));
                peer.expectFpdu().withUlpdu(RdmapUlpdus.readResponse(0x77,
                        0x1000L * msn, new byte[0])).and();
            }
            peer.sendFpdu(offending).expectBytes(expectedFpdu, "the golden Terminate FPDU").expectFin().start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }

    // ------------------------------------------------------------------ untagged buffer errors

    static Stream<Case> untaggedCases() {
        return Stream.of(
                ddp("Send longer than the receive -> 0x1/0x2/0x05 (siw: 0x02)", 2, 0x05, s -> send(1, new byte[17])),
                ddp("Send for which no receive is posted (MSN 3) -> 0x1/0x2/0x02", 2, 0x02, s -> send(3, P16)),
                ddp("Send with MSN 0 (behind the window) -> 0x1/0x2/0x03", 2, 0x03, s -> send(0, P16)),
                ddp("Send on QN 5 -> 0x1/0x2/0x01", 2, 0x01, s -> untagged(true, control(SEND), 5, 1, 0, P16)),
                ddp("Send with MO 32 beyond the buffer -> 0x1/0x2/0x04", 2, 0x04,
                        s -> untagged(true, control(SEND), 0, 1, 32, P16)),
                ddp("Send with DV=0 -> 0x1/0x2/0x06", 2, 0x06,
                        s -> untagged(control(false, true, 0, 0), control(SEND), 0, 0, 1, 0, P16)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("untaggedCases")
    @Requirement({"RDMAP-12", "RDMAP-17", "RDMAP-30", "RDMAP-31"})
    @DisplayName("RDMAP-12, RDMAP-17, RDMAP-30, RDMAP-31: an invalid Send consumes nothing and is answered by a DDP "
            + "untagged-buffer Terminate with M=D=1 and its 18-octet DDP header")
    void untaggedBufferErrors(Case c) {
        try (Subject s = new Subject()) {
            run(c, s);
        }
    }

    // ------------------------------------------------------------------ RDMAP control field errors

    static Stream<Case> controlCases() {
        return Stream.of(
                rdmap("RV=00b (RDMAC) -> 0x0/0x2/0x05", 2, 0x05, false,
                        s -> untagged(true, 0x00 | SEND, 0, 1, 0, P16)),
                rdmap("RV=10b -> 0x0/0x2/0x05", 2, 0x05, false, s -> untagged(true, 0x80 | SEND, 0, 1, 0, P16)),
                rdmap("opcode 0xC (unassigned) -> 0x0/0x2/0x06", 2, 0x06, false,
                        s -> untagged(true, control(0xC), 0, 1, 0, P16)),
                rdmap("opcode 0xF (experimental) on a tagged segment -> 0x0/0x2/0x06", 2, 0x06, false,
                        s -> tagged(true, control(0xF), s.sink.stagValue(), s.sink.to(0), P16)),
                rdmap("RDMA Write opcode with T=0 -> 0x0/0x2/0x06", 2, 0x06, false,
                        s -> untagged(true, control(0x0), 0, 1, 0, P16)),
                rdmap("Send opcode with T=1 -> 0x0/0x2/0x06", 2, 0x06, false,
                        s -> tagged(true, control(SEND), s.sink.stagValue(), s.sink.to(0), P16)),
                rdmap("Read Request opcode on QN 0 -> 0x0/0x2/0x06", 2, 0x06, false,
                        s -> untagged(true, control(0x1), 0, 1, 0,
                                RdmapUlpdus.readRequestHeader(1, 0, 0, 1, 0))),
                rdmap("Send opcode on QN 1 -> 0x0/0x2/0x06", 2, 0x06, false,
                        s -> untagged(true, control(SEND), 1, 1, 0, P16)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("controlCases")
    @Requirement({"RDMAP-01", "RDMAP-03", "RDMAP-07", "RDMAP-12", "RDMAP-31"})
    @DisplayName("RDMAP-01, RDMAP-03, RDMAP-07, RDMAP-12, RDMAP-31: a bad RV, an unassigned opcode or one whose T flag "
            + "/ QN does not match the opcode table gets a Remote Operation Terminate with M=D=1, its DDP header, no "
            + "RDMA header")
    void controlFieldErrors(Case c) {
        try (Subject s = new Subject()) {
            run(c, s);
        }
    }

    @Test
    @Requirement({"EXT-01", "RDMAP-31"})
    @DisplayName("EXT-01, RDMAP-31: with RFC 7306 off, Immediate Data (opcode 0x8) is an Unexpected OpCode "
            + "0x0/0x2/0x06")
    void rfc7306OpcodeOnAPlainStream() {
        try (Subject s = new Subject(false, 4)) {
            run(rdmap("opcode 8 without RFC 7306", 2, 0x06, false,
                    x -> RdmapUlpdus.immediate(1, 42)), s);
        }
    }

    // ------------------------------------------------------------------ Send with Invalidate

    static Stream<Case> invalidateCases() {
        return Stream.of(
                rdmap("Send with Invalidate of a memory region -> 0x0/0x1/0x09", 1, 0x09, false,
                        s -> untaggedQn0(SEND_INV, s.sink.stagValue(), 1, P16)),
                rdmap("Send with SE and Invalidate of an unknown STag -> 0x0/0x1/0x09", 1, 0x09, false,
                        s -> untaggedQn0(SEND_SE_INV, 0xdeadbe00, 1, P16)),
                rdmap("Send with Invalidate of an STag of another PD -> 0x0/0x1/0x09", 1, 0x09, false,
                        s -> untaggedQn0(SEND_INV, s.foreign.stagValue(), 1, P16)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidateCases")
    @Requirement({"RDMAP-18", "RDMAP-32", "RDMAP-31"})
    @DisplayName("RDMAP-18, RDMAP-31, RDMAP-32: a Send with Invalidate naming an STag this stream may not invalidate "
            + "gets 'STag cannot be Invalidated' 0x0/0x1/0x09 and the region stays valid")
    void stagCannotBeInvalidated(Case c) {
        try (Subject s = new Subject()) {
            run(c, s);
            assertThat(s.sink.mr().isValid()).as("a memory region shared by streams is never invalidated remotely")
                    .isTrue();
            assertThat(s.foreign.mr().isValid()).isTrue();
        }
    }

    // ------------------------------------------------------------------ RFC 7306

    @Test
    @Requirement({"EXT-04", "EXT-13", "EXT-14"})
    @DisplayName("EXT-04, EXT-13, EXT-14: a misaligned Atomic Request (MSN 7) is not performed and gets the golden "
            + "Terminate 0x0/0x2/0x07 with its DDP header and no RDMA header, octet for octet")
    void misalignedAtomic() {
        var vector = GoldenVectors.named("fpdu-terminate-atomic-misaligned");
        try (Subject s = new Subject(true, 8); ScriptedPeer peer = PeerScripts.initiator(s.address, 8, 8)) {
            s.atomic.buf().putLong(8, 0x0102030405060708L);
            for (int msn = 1; msn <= 6; msn++) {
                peer.sendFpdu(readRequest(msn, 0x77, 0, 0, 0, 0))
                        .expectFpdu().withUlpdu(RdmapUlpdus.readResponse(0x77, 0,
                                new byte[0]));
            }
            peer.sendFpdu(atomicRequest(7, 0, 1, s.atomic.stagValue(), s.atomic.to(9), 5, 0, 0, -1L))
                    .expectBytes(vector.bytes(), "the golden Terminate FPDU").expectFin().start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
            assertThat(s.atomic.buf().getLong(8)).as("memory untouched").isEqualTo(0x0102030405060708L);
        }
    }

    static Stream<Case> extCases() {
        return Stream.of(
                rdmap("Atomic Request with AOpCode 0x3 -> 0x0/0x2/0x06", 2, 0x06, false,
                        s -> atomicRequest(1, 3, 9, s.atomic.stagValue(), s.atomic.to(0), 1, 0, 0, -1L)),
                rdmap("Atomic Request on an unknown STag -> 0x0/0x1/0x00 without RDMA header", 1, 0x00, false,
                        s -> atomicRequest(1, 0, 9, 0xdeadbe00, 0x1000, 1, 0, 0, -1L)),
                rdmap("Atomic Request without the remote-atomic right -> 0x0/0x1/0x02", 1, 0x02, false,
                        s -> atomicRequest(1, 2, 9, s.sink.stagValue(), s.sink.to(0), 1, -1L, 0, -1L)),
                rdmap("Immediate Data of 7 octets -> 0x0/0x2/0xFF", 2, 0xFF, false,
                        s -> untaggedQn0(0x8, 0, 1, new byte[7])),
                rdmap("Immediate Data of 9 octets -> 0x0/0x2/0xFF", 2, 0xFF, false,
                        s -> untaggedQn0(0x9, 0, 1, new byte[9])));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("extCases")
    @Requirement({"EXT-02", "EXT-10", "EXT-13", "EXT-14"})
    @DisplayName("EXT-02, EXT-10, EXT-13, EXT-14: an unknown AOpCode, an invalid atomic target or Immediate Data that "
            + "is not 8 octets is answered by a Terminate with the DDP header and never an RDMA header")
    void rfc7306Errors(Case c) {
        try (Subject s = new Subject()) {
            s.atomic.buf().putLong(0, 77);
            run(c, s);
            assertThat(s.atomic.buf().getLong(0)).isEqualTo(77);
        }
    }

    // ------------------------------------------------------------------ LLP error, first error, IRD

    @Test
    @Requirement({"RDMAP-29", "MPA-45"})
    @DisplayName("RDMAP-29, MPA-45: after a CRC error MPA keeps TCP open, RDMAP sends the golden LLP Terminate "
            + "0x2/0x0/0x02 (no headers) and then closes gracefully; posted receives are flushed")
    void crcErrorTerminate() {
        try (Subject s = new Subject(); ScriptedPeer peer = PeerScripts.initiator(s.address, 4, 4)) {
            peer.sendFpdu(send(1, P16)).sendFpdu(send(2, P16), FpduTamper.BAD_CRC)
                    .expectBytes(GoldenVectors.named("fpdu-terminate-llp-crc").bytes(), "the golden CRC Terminate")
                    .expectFin().start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
            List<WorkCompletion> wcs = s.stack.recvCompletions(2);
            assertThat(wcs.get(0).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(wcs.get(1).status()).isEqualTo(CompletionStatus.TERMINATE_SENT);
            assertThat(wcs.get(1).terminate().orElseThrow().layer()).isEqualTo(2);
        }
    }

    @Test
    @Requirement({"RDMAP-19", "RDMAP-30", "RDMAP-33"})
    @DisplayName("RDMAP-19, RDMAP-30, RDMAP-33: several bad segments in one read give one Terminate naming the first, "
            + "then FIN with nothing else; the local user hears of the error")
    void firstErrorWinsAndNothingFollows() {
        try (Subject s = new Subject(); ScriptedPeer peer = PeerScripts.initiator(s.address, 4, 4)) {
            byte[] badWrite = write(0xdeadbe00, 0, P16);
            byte[] tooLong = send(1, new byte[40]);
            byte[] badRv = untagged(true, SEND, 0, 2, 0, P16);
            peer.send(PeerScripts.fpdus(badWrite, tooLong, badRv))
                    .expectFpdu().withUlpdu(terminateFor(1, 1, 0x00, badWrite, false)).and()
                    .expectFin().start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
            s.assertAftermath(terminateFor(1, 1, 0x00, badWrite, false));
            assertThat(s.stack.asyncEvents()).hasSize(1);
        }
    }

    @Test
    @Requirement({"RDMAP-16", "RDMAP-15"})
    @DisplayName("RDMAP-15, RDMAP-16: the stack provisions exactly IRD Read Request buffers; a request beyond IRD "
            + "arriving with the others gets DDP 'no buffer' 0x1/0x2/0x02 (siw: 0x0/0x2/0x07) and no Read Response at "
            + "all")
    void readRequestBeyondIrd() {
        try (Subject s = new Subject(true, 1); ScriptedPeer peer = PeerScripts.initiator(s.address, 4, 1)) {
            byte[] first = readRequest(1, 0x77, 0x1000, 16, s.source.stagValue(), s.source.to(0));
            byte[] second = readRequest(2, 0x77, 0x2000, 16, s.source.stagValue(), s.source.to(16));
            peer.send(PeerScripts.fpdus(first, second))
                    .expectFpdu().withUlpdu(terminateFor(1, 2, 0x02, second, false)).and().expectFin().start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }
}
