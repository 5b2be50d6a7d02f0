package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.rdmap.RdmapException;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaRead;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaWrite;
import org.iwarp4j.rdmap.stream.RdmapOperation.Send;
import org.iwarp4j.rdmap.stream.RecordingListener.SendCompletion;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.LOCAL_WRITE;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_ATOMIC;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_READ;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_WRITE;
import static org.iwarp4j.rdmap.stream.Ulpdus.hex;
import static org.iwarp4j.rdmap.stream.Ulpdus.terminate;

/**
 * Every detection → Terminate row of docs/protocol/errors.md §5 that reaches RDMAP (RFC 5040 §7.1/§7.2, RFC 5041 §7,
 * RFC 7306 §8, RFC 6581 §8): the exact Terminate octets (Layer/EType/Code, M/D/R, copied headers), memory
 * untouched, nothing sent after the Terminate [RDMAP-19], outstanding work flushed [RDMAP-29], first error
 * wins [RDMAP-30].
 */
class ErrorPathTest {

    /** A stream under test fed by a raw peer; it owns a sink, a source, an atomic word and receives. */
    private static final class Subject implements AutoCloseable {
        final Endpoint e;
        final TestRegion writable;
        final TestRegion readable;
        final byte[] writableBefore;

        Subject(RdmapStreamConfig config) {
            e = new Endpoint(config, 1500);
            writable = e.memory.register(0x1a2b3c4d, 0x100000, 64, EnumSet.of(REMOTE_WRITE, LOCAL_WRITE), Endpoint.PD);
            readable = e.memory.register(0x11223344, 0x4000, 256, EnumSet.of(REMOTE_READ, REMOTE_ATOMIC), Endpoint.PD);
            readable.memory.setBytes(0, Endpoint.pattern(256, 9));
            writableBefore = writable.bytes();
        }

        Subject() {
            this(RdmapStreamConfig.defaults());
        }

        /** Feeds ULPDUs and returns everything the stream sends in answer. */
        List<String> feed(byte[]... ulpdus) {
            for (byte[] u : ulpdus) {
                e.stream.receive(Conversations.segment(u));
            }
            return Conversations.drain(e).stream().map(Ulpdus::hex).toList();
        }

        void assertTerminated(TerminateCause cause) {
            assertThat(e.stream.state()).isEqualTo(RdmapStreamState.ERROR);
            assertThat(e.stream.terminateSent().cause()).isEqualTo(cause);
            assertThat(e.listener.terminatesSent).hasSize(1);
            assertThat(e.listener.fatalErrors).hasSize(1).first().isInstanceOf(RdmapException.class);
            assertThat(e.memory.guardsIntact()).isTrue();
            // RFC 5040 §5.4 [RDMAP-19]: nothing after the Terminate, even when asked
            e.stream.submit(Send.of(999, Endpoint.data(new byte[1])));
            assertThat(e.stream.writeNextSegment()).isFalse();
            assertThat(e.listener.sends).last().isEqualTo(
                    new SendCompletion(999, OperationType.SEND, OperationStatus.FLUSHED, 0, 0));
        }

        @Override
        public void close() {
            e.close();
        }
    }

    // ------------------------------------------------------------------ LLP (MPA) errors, no headers

    @Test
    void mpaCrcErrorMatchesTheVector() {
        try (Subject s = new Subject()) {
            s.e.stream.abort(TerminateCause.MPA_CRC_ERROR, "CRC mismatch reported by MPA");
            assertThat(s.feed()).containsExactly(GoldenVectors.named("fpdu-terminate-llp-crc").field("ulpdu_hex"));
            s.assertTerminated(TerminateCause.MPA_CRC_ERROR);
        }
    }

    @Test
    void mpaMarkerMismatchAndRfc6581SetupErrorsCarryNoHeaders() {
        for (TerminateCause cause : List.of(TerminateCause.MPA_MARKER_MISMATCH, TerminateCause.MPA_LOCAL_CATASTROPHIC,
                TerminateCause.MPA_NO_MATCHING_RTR)) {
            try (Subject s = new Subject()) {
                s.e.stream.abort(cause, "from MPA");
                assertThat(s.feed()).containsExactly(terminate(String.format("20%02x0000", cause.code())));
            }
        }
    }

    @Test
    void insufficientIrdIsTheInitiatorsFirstAndOnlyFpdu() {
        // RFC 6581 §9.1 [MPA-69]: Terminate 0x2/0x0/0x06 as the first FPDU, even if work was queued
        try (Subject s = new Subject()) {
            s.e.stream.submit(Send.of(1, Endpoint.data(new byte[8])));
            s.e.stream.abort(TerminateCause.MPA_INSUFFICIENT_IRD, "responder ORD above our IRD");
            assertThat(s.feed())
                    .containsExactly(GoldenVectors.named("fpdu-terminate-insufficient-ird").field("ulpdu_hex"));
            assertThat(s.e.listener.sends).containsExactly(
                    new SendCompletion(1, OperationType.SEND, OperationStatus.FLUSHED, 8, 0));
        }
    }

    @Test
    void localCatastrophicCarriesNoHeaders() {
        try (Subject s = new Subject()) {
            s.e.stream.abort(TerminateCause.RDMAP_LOCAL_CATASTROPHIC, "out of memory");
            assertThat(s.feed()).containsExactly(terminate("00000000"));
        }
    }

    // ------------------------------------------------------------------ DDP errors (M=1 D=1, DDP header)

    @Test
    void writeOutsideTheRegionMatchesTheVector() {
        // fpdu-rdma-write (64 octets at TO 0x100000) into a 32-octet region: 0x1/0x1/0x01
        try (Endpoint e = Endpoint.create()) {
            TestRegion small = e.memory.register(0x1a2b3c4d, 0x100000, 32, EnumSet.of(REMOTE_WRITE), Endpoint.PD);
            e.stream.receive(Conversations.segment(GoldenVectors.named("fpdu-rdma-write").hex("ulpdu_hex")));
            assertThat(Conversations.drain(e).stream().map(Ulpdus::hex).toList())
                    .containsExactly(GoldenVectors.named("fpdu-terminate-ddp-tagged-bounds").field("ulpdu_hex"));
            assertThat(small.bytes()).containsOnly(0);
            assertThat(e.memory.guardsIntact()).isTrue();
        }
    }

    @Test
    void taggedBufferErrors() {
        byte[] payload = new byte[8];
        Object[][] cases = {
                // STag unknown → Invalid STag
                {Ulpdus.tagged(true, 0x40, 0x0bad0bad, 0x100000, payload), TerminateCause.DDP_INVALID_STAG, "00"},
                // a region the peer may not write (REMOTE_READ only) → Invalid STag (docs/protocol/errors.md §5, siw)
                {Ulpdus.tagged(true, 0x40, 0x11223344, 0x4000, payload), TerminateCause.DDP_INVALID_STAG, "00"},
                // TO + length beyond the region
                {Ulpdus.tagged(true, 0x40, 0x1a2b3c4d, 0x100000 + 60, payload),
                        TerminateCause.DDP_BASE_OR_BOUNDS_VIOLATION, "01"},
        };
        for (Object[] c : cases) {
            byte[] u = (byte[]) c[0];
            try (Subject s = new Subject()) {
                assertThat(s.feed(u)).containsExactly(terminate("11" + c[2] + "c000" + "0016" + hex(u, 0, 14)));
                assertThat(s.writable.bytes()).isEqualTo(s.writableBefore);
                s.assertTerminated((TerminateCause) c[1]);
            }
        }
    }

    @Test
    void stagOfAnotherProtectionDomainAndToWrap() {
        try (Subject s = new Subject()) {
            s.e.memory.register(0x77, 0, 64, EnumSet.of(REMOTE_WRITE), Endpoint.PD + 1);
            byte[] u = Ulpdus.tagged(true, 0x40, 0x77, 0, new byte[4]);
            assertThat(s.feed(u)).containsExactly(terminate("1102c000" + "0012" + hex(u, 0, 14)));
            s.assertTerminated(TerminateCause.DDP_STAG_NOT_ASSOCIATED);
        }
        try (Subject s = new Subject()) {
            s.e.memory.register(0x78, 0xFFFFFFFFFFFFFF00L, 256, EnumSet.of(REMOTE_WRITE), Endpoint.PD);
            byte[] u = Ulpdus.tagged(true, 0x40, 0x78, 0xFFFFFFFFFFFFFF80L, new byte[128]);
            assertThat(s.feed(u)).containsExactly(terminate("1103c000" + "008e" + hex(u, 0, 14)));
            s.assertTerminated(TerminateCause.DDP_TO_WRAP);
        }
    }

    @Test
    void ddpVersionErrors() {
        try (Subject s = new Subject()) {
            byte[] u = Ulpdus.tagged(true, 0x40, 0x1a2b3c4d, 0x100000, new byte[4]);
            u[0] = (byte) 0xC2; // DV = 2
            assertThat(s.feed(u)).containsExactly(terminate("1104c000" + "0012" + hex(u, 0, 14)));
            s.assertTerminated(TerminateCause.DDP_TAGGED_INVALID_VERSION);
        }
        try (Subject s = new Subject()) {
            s.e.postReceive(1, 16);
            byte[] u = Ulpdus.untagged(true, 0x43, 0, 0, 1, 0, new byte[4]);
            u[0] = 0x40; // DV = 0 (RDMAC)
            assertThat(s.feed(u)).containsExactly(terminate("1206c000" + "0016" + hex(u, 0, 18)));
            s.assertTerminated(TerminateCause.DDP_UNTAGGED_INVALID_VERSION);
        }
    }

    @Test
    void untaggedBufferErrors() {
        // no receive posted → 0x1/0x2/0x02 [RDMAP-17]
        try (Subject s = new Subject()) {
            byte[] u = Ulpdus.untagged(true, 0x43, 0, 0, 1, 0, new byte[4]);
            assertThat(s.feed(u)).containsExactly(terminate("1202c000" + "0016" + hex(u, 0, 18)));
            s.assertTerminated(TerminateCause.DDP_INVALID_MSN_NO_BUFFER);
        }
        // Send longer than the posted receive → 0x1/0x2/0x05, the receive untouched
        try (Subject s = new Subject()) {
            ByteBuf receive = s.e.postReceive(1, 4);
            byte[] u = Ulpdus.untagged(true, 0x43, 0, 0, 1, 0, new byte[] {1, 2, 3, 4, 5});
            assertThat(s.feed(u)).containsExactly(terminate("1205c000" + "0017" + hex(u, 0, 18)));
            assertThat(receive.getInt(0)).isZero();
            assertThat(s.e.listener.receives).extracting(RecordingListener.ReceiveCompletion::status)
                    .containsExactly(OperationStatus.FLUSHED);
            s.assertTerminated(TerminateCause.DDP_MESSAGE_TOO_LONG);
        }
        // QN 4 → Invalid QN; QN 3 without RFC 7306 too
        try (Subject s = new Subject()) {
            byte[] u = Ulpdus.untagged(true, 0x43, 0, 4, 1, 0, new byte[0]);
            assertThat(s.feed(u)).containsExactly(terminate("1201c000" + "0012" + hex(u, 0, 18)));
        }
        try (Subject s = new Subject(RdmapStreamConfig.defaults().withRfc7306(false))) {
            byte[] u = Ulpdus.untagged(true, 0x4B, 0, 3, 1, 0, new byte[12]);
            assertThat(s.feed(u)).containsExactly(terminate("1201c000" + "001e" + hex(u, 0, 18)));
        }
        // MSN behind the window (a message already delivered) → 0x1/0x2/0x03
        try (Subject s = new Subject()) {
            s.e.postReceive(1, 16);
            s.e.postReceive(2, 16);
            byte[] first = Ulpdus.untagged(true, 0x43, 0, 0, 1, 0, new byte[2]);
            byte[] again = Ulpdus.untagged(true, 0x43, 0, 0, 1, 0, new byte[2]);
            assertThat(s.feed(first, again)).containsExactly(terminate("1203c000" + "0014" + hex(again, 0, 18)));
        }
    }

    @Test
    void readRequestsBeyondIrdFindNoBuffer() {
        // RFC 5040 §6.1 [RDMAP-16]: with IRD 1 a second outstanding request has no QN-1 buffer
        try (Subject s = new Subject(RdmapStreamConfig.defaults().withReadDepths(1, 1))) {
            byte[] r1 = Ulpdus.readRequest(1, 0x5, 0, 16, 0x11223344, 0x4000);
            byte[] r2 = Ulpdus.readRequest(2, 0x5, 16, 16, 0x11223344, 0x4010);
            s.e.stream.receive(Conversations.segment(r1));
            s.e.stream.receive(Conversations.segment(r2)); // before the first response went out
            assertThat(s.feed()).containsExactly(terminate("1202c000" + "002e" + hex(r2, 0, 18)));
            s.assertTerminated(TerminateCause.DDP_INVALID_MSN_NO_BUFFER);
        }
        // once the response is out the slot is free again
        try (Subject s = new Subject(RdmapStreamConfig.defaults().withReadDepths(1, 1))) {
            byte[] r1 = Ulpdus.readRequest(1, 0x5, 0, 16, 0x11223344, 0x4000);
            byte[] r2 = Ulpdus.readRequest(2, 0x5, 16, 16, 0x11223344, 0x4010);
            assertThat(s.feed(r1)).hasSize(1);
            assertThat(s.feed(r2)).hasSize(1);
            assertThat(s.e.stream.state()).isEqualTo(RdmapStreamState.OPERATIONAL);
        }
    }

    // ------------------------------------------------------------------ RDMAP errors

    @Test
    void readRequestWithInvalidSourceStagMatchesTheVector() {
        // fpdu-rdma-read-request-bad-stag (MSN 4) → fpdu-terminate-rr-invalid-stag (R=1, original header)
        try (Subject s = new Subject()) {
            byte[][] earlier = new byte[3][];
            for (int msn = 1; msn <= 3; msn++) {
                earlier[msn - 1] = Ulpdus.readRequest(msn, 0x5, 0, 0, 0, 0); // zero-size Reads: MSN 1..3
            }
            assertThat(s.feed(earlier)).hasSize(3);
            byte[] bad = GoldenVectors.named("fpdu-rdma-read-request-bad-stag").hex("ulpdu_hex");
            assertThat(s.feed(bad))
                    .containsExactly(GoldenVectors.named("fpdu-terminate-rr-invalid-stag").field("ulpdu_hex"));
            s.assertTerminated(TerminateCause.RDMAP_INVALID_STAG);
        }
    }

    @Test
    void readRequestSourceChecksCopyBothHeaders() {
        Object[][] cases = {
                // other PD → STag not associated (0x03)
                {0x66, 0L, 16, TerminateCause.RDMAP_STAG_NOT_ASSOCIATED, "03"},
                // no remote-read right (the writable region) → Access rights violation (0x02)
                {0x1a2b3c4d, 0x100000L, 16, TerminateCause.RDMAP_ACCESS_RIGHTS_VIOLATION, "02"},
                // beyond the region → Base or bounds (0x01)
                {0x11223344, 0x4000L + 250, 16, TerminateCause.RDMAP_BASE_OR_BOUNDS_VIOLATION, "01"},
                // TO + size wraps 2^64 → TO wrap (0x04)
                {0x67, 0xFFFFFFFFFFFFFF80L, 0x80, TerminateCause.RDMAP_TO_WRAP, "04"},
        };
        for (Object[] c : cases) {
            try (Subject s = new Subject()) {
                s.e.memory.register(0x66, 0, 64, EnumSet.of(REMOTE_READ), Endpoint.PD + 1);
                s.e.memory.register(0x67, 0xFFFFFFFFFFFFFF00L, 256, EnumSet.of(REMOTE_READ), Endpoint.PD);
                byte[] rr = Ulpdus.readRequest(1, 0x5, 0x10, (int) c[2], (int) c[0], (long) c[1]);
                assertThat(s.feed(rr)).as(c[3].toString())
                        .containsExactly(terminate("01" + c[4] + "e000" + "002e" + hex(rr, 0, 18) + hex(rr, 18, 46)));
                s.assertTerminated((TerminateCause) c[3]);
            }
        }
    }

    /**
     * The source and sink wraps need only the request's octets, so they are decided before the source STag is
     * looked up: an unknown STag 0x999 does not change the Terminate (0x0/0x1/0x04, R=1, both headers).
     */
    @Test
    void readRequestWrapsAreDecidedBeforeTheSourceStag() {
        long[][] cases = {
                {0x10L, 0xFFFFFFFFFFFFFFF0L},   // source TO + 0x20 wraps
                {0xFFFFFFFFFFFFFFF0L, 0x4000L}, // sink TO + 0x20 wraps
        };
        for (long[] c : cases) {
            try (Subject s = new Subject()) {
                byte[] rr = Ulpdus.readRequest(1, 0x5, c[0], 0x20, 0x999, c[1]);
                assertThat(s.feed(rr))
                        .containsExactly(terminate("0104e000" + "002e" + hex(rr, 0, 18) + hex(rr, 18, 46)));
                s.assertTerminated(TerminateCause.RDMAP_TO_WRAP);
            }
        }
        try (Subject s = new Subject()) {
            // RFC 5040 §5.2: a zero-size Read is not validated, wherever its TOs point.
            assertThat(s.feed(Ulpdus.readRequest(1, 0x5, -1L, 0, 0x999, -1L))).hasSize(1);
            assertThat(s.e.stream.state()).isNotEqualTo(RdmapStreamState.ERROR);
        }
    }

    /** DDP decides a tagged wrap from the octets, before RDMAP's admission (RV, Read Response state) is asked. */
    @Test
    void taggedWrapIsDecidedBeforeRdmapLooksAtTheSegment() {
        byte[][] cases = {
                Ulpdus.tagged(true, 0x42, 0x5, 0xFFFFFFFFFFFFFFFCL, new byte[4]), // Read Response, no Read outstanding
                Ulpdus.tagged(true, 0x00, 0x999, 0xFFFFFFFFFFFFFFFFL, new byte[1]), // RV 0, unknown STag
        };
        for (byte[] u : cases) {
            try (Subject s = new Subject()) {
                String length = String.format("%04x", u.length);
                assertThat(s.feed(u)).containsExactly(terminate("1103c000" + length + hex(u, 0, 14)));
                s.assertTerminated(TerminateCause.DDP_TO_WRAP);
            }
        }
    }

    @Test
    void readSourceInvalidatedMidResponseReportsTheProgress() {
        // RFC 5040 §4.8 [RDMAP-11]: the Terminated RDMA Header reflects the octets already sent
        try (Subject s = new Subject()) {
            s.e.llp.mulpdu = 128; // 114 payload octets per Read Response segment
            byte[] rr = Ulpdus.readRequest(1, 0x5, 0x1000, 256, 0x11223344, 0x4000);
            s.e.stream.receive(Conversations.segment(rr));
            assertThat(s.e.stream.writeNextSegment()).isTrue();
            assertThat(s.e.stream.writeNextSegment()).isTrue(); // 228 of 256 octets out
            s.readable.invalidate();
            assertThat(s.e.stream.writeNextSegment()).isTrue(); // the Terminate instead of the third segment
            assertThat(s.e.stream.writeNextSegment()).isFalse();
            List<String> out = Conversations.drain(s.e).stream().map(Ulpdus::hex).toList();
            assertThat(out).hasSize(3);
            String progressed = "00000005" + String.format("%016x", 0x1000 + 228) + String.format("%08x", 256 - 228)
                    + "11223344" + String.format("%016x", 0x4000 + 228);
            assertThat(out.get(2)).isEqualTo(terminate("0100e000" + "002e" + hex(rr, 0, 18) + progressed));
        }
    }

    @Test
    void invalidRdmapVersionAndUnexpectedOpcodes() {
        try (Subject s = new Subject()) {
            byte[] u = Ulpdus.tagged(true, 0x00, 0x1a2b3c4d, 0x100000, new byte[4]); // RV 0
            assertThat(s.feed(u)).containsExactly(terminate("0205c000" + "0012" + hex(u, 0, 14)));
            assertThat(s.writable.bytes()).isEqualTo(s.writableBefore);
            s.assertTerminated(TerminateCause.RDMAP_INVALID_VERSION);
        }
        byte[][] unexpected = {
                Ulpdus.untagged(true, 0x4C, 0, 0, 1, 0, new byte[0]),            // opcode 0xC unassigned
                Ulpdus.untagged(true, 0x4F, 0, 0, 1, 0, new byte[0]),            // 0xF reserved
                Ulpdus.tagged(true, 0x43, 0x1a2b3c4d, 0x100000, new byte[4]),    // Send on a tagged segment
                Ulpdus.untagged(true, 0x40, 0, 0, 1, 0, new byte[0]),            // Write on an untagged segment
                Ulpdus.untagged(true, 0x43, 0, 1, 1, 0, new byte[0]),            // Send on QN 1
                Ulpdus.untagged(true, 0x47, 0, 0, 1, 0, new byte[4]),            // Terminate on QN 0
                Ulpdus.tagged(true, 0x42, 0x1a2b3c4d, 0x100000, new byte[4]),    // Read Response, no Read outstanding
        };
        for (byte[] u : unexpected) {
            try (Subject s = new Subject()) {
                s.e.postReceive(1, 16);
                int headerLength = (u[0] & 0x80) != 0 ? 14 : 18;
                assertThat(s.feed(u)).as(hex(u)).containsExactly(terminate("0206c000"
                        + String.format("%04x", u.length) + hex(u, 0, headerLength)));
                assertThat(s.writable.bytes()).isEqualTo(s.writableBefore);
                s.assertTerminated(TerminateCause.RDMAP_UNEXPECTED_OPCODE);
            }
        }
        // RFC 7306 opcodes on a plain RFC 5040 stream
        try (Subject s = new Subject(RdmapStreamConfig.defaults().withRfc7306(false))) {
            s.e.postReceive(1, 16);
            byte[] u = Ulpdus.untagged(true, 0x48, 0, 0, 1, 0, new byte[8]);
            assertThat(s.feed(u)).containsExactly(terminate("0206c000" + "001a" + hex(u, 0, 18)));
        }
    }

    @Test
    void sendWithInvalidateOfAForeignOrProtectedStag() {
        // RFC 5040 §5.3 [RDMAP-18]: Remote Protection / 0x09 with the DDP header; no RDMA header (not a Read)
        for (int stag : new int[] {0x0bad0bad, 0x66, 0x1a2b3c4d}) {
            try (Subject s = new Subject()) {
                s.e.memory.register(0x66, 0, 16, EnumSet.of(REMOTE_WRITE), Endpoint.PD + 1); // other PD
                s.writable.remotelyInvalidatable = false;                                    // e.g. a plain MR
                s.e.postReceive(1, 16);
                byte[] u = Ulpdus.untagged(true, 0x44, stag, 0, 1, 0, "abc".getBytes());
                assertThat(s.feed(u)).containsExactly(terminate("0109c000" + "0015" + hex(u, 0, 18)));
                assertThat(s.writable.isValid()).isTrue();
                assertThat(s.e.listener.receives).extracting(RecordingListener.ReceiveCompletion::status)
                        .containsExactly(OperationStatus.LOCAL_ERROR);
                s.assertTerminated(TerminateCause.RDMAP_STAG_CANNOT_BE_INVALIDATED);
            }
        }
    }

    @Test
    void misalignedAtomicMatchesTheVectorAndLeavesMemoryUntouched() {
        // RFC 7306 §5.1/§8.2 [EXT-04, EXT-14]: not performed, Remote Operation / 0x07, no RDMA header
        try (Subject s = new Subject()) {
            byte[] before = s.readable.bytes();
            byte[][] earlier = new byte[6][];
            for (int msn = 1; msn <= 6; msn++) {
                earlier[msn - 1] = Ulpdus.readRequest(msn, 0x5, 0, 0, 0, 0);
            }
            assertThat(s.feed(earlier)).hasSize(6);
            byte[] atomic = Ulpdus.fetchAdd(7, 1, 0x11223344, 0x4044, 5, 0);
            assertThat(s.feed(atomic)).containsExactly(
                    GoldenVectors.named("fpdu-terminate-atomic-misaligned").field("ulpdu_hex"));
            assertThat(s.readable.bytes()).isEqualTo(before);
            s.assertTerminated(TerminateCause.RDMAP_CATASTROPHIC_LOCALIZED);
        }
    }

    @Test
    void atomicTargetChecksAndUnknownAopcode() {
        try (Subject s = new Subject()) {
            byte[] atomic = Ulpdus.fetchAdd(1, 1, 0x1a2b3c4d, 0x100000, 5, 0); // region without REMOTE_ATOMIC
            assertThat(s.feed(atomic)).containsExactly(terminate("0102c000" + "0046" + hex(atomic, 0, 18)));
            assertThat(s.writable.bytes()).isEqualTo(s.writableBefore);
        }
        try (Subject s = new Subject()) {
            byte[] atomic = Ulpdus.fetchAdd(1, 1, 0x11223344, 0x4000, 5, 0);
            atomic[21] = 0x01; // AOpCode 1 is reserved
            assertThat(s.feed(atomic)).containsExactly(terminate("0206c000" + "0046" + hex(atomic, 0, 18)));
        }
        try (Subject s = new Subject()) {
            // RFC 7306 §8.2: validated as a Read's source; the aligned word at 0xFFFFFFFFFFFFFFF8 ends at 2^64, a wrap
            // whatever STag 0x999 names.
            byte[] atomic = Ulpdus.fetchAdd(1, 1, 0x999, 0xFFFFFFFFFFFFFFF8L, 5, 0);
            assertThat(s.feed(atomic)).containsExactly(terminate("0104c000" + "0046" + hex(atomic, 0, 18)));
            s.assertTerminated(TerminateCause.RDMAP_TO_WRAP);
        }
    }

    @Test
    void immediateDataOfTheWrongLength() {
        // RFC 7306 §6.2 [EXT-02]: exactly 8 octets; the RFC names no code: 0x0/0x2/0xFF (docs/protocol/errors.md §5)
        for (int length : new int[] {0, 7, 9}) {
            try (Subject s = new Subject()) {
                s.e.postReceive(1, 16);
                byte[] u = Ulpdus.untagged(true, 0x48, 0, 0, 1, 0, new byte[length]);
                assertThat(s.feed(u)).containsExactly(terminate("02ffc000" + String.format("%04x", u.length)
                        + hex(u, 0, 18)));
                s.assertTerminated(TerminateCause.RDMAP_REMOTE_OPERATION_UNSPECIFIED);
            }
        }
    }

    @Test
    void readResponsesThatDoNotMatchTheRead() {
        // (1) wrong STag → DDP Invalid STag; (2) wrong TO and (3) short → DDP Base or bounds (as Linux siw)
        String[][] cases = {{"0x99", "0", "32", "1100"}, {"0x5", "8", "32", "1101"}, {"0x5", "0", "16", "1101"}};
        for (String[] c : cases) {
            try (Subject s = new Subject()) {
                s.e.memory.register(0x5, 0, 64, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
                s.e.stream.submit(new RdmaRead(1, 0x5, 0, 32, 0x9, 0, false));
                assertThat(s.feed()).hasSize(1);
                byte[] response = Ulpdus.tagged(true, 0x42, Integer.decode(c[0]), Long.parseLong(c[1]),
                        new byte[Integer.parseInt(c[2])]);
                assertThat(s.feed(response)).containsExactly(terminate(c[3] + "c000"
                        + String.format("%04x", response.length) + hex(response, 0, 14)));
                assertThat(s.e.listener.sends).first().isEqualTo(
                        new SendCompletion(1, OperationType.RDMA_READ, OperationStatus.FLUSHED, 32, 0));
            }
        }
    }

    @Test
    void firstErrorWinsAndOnlyOneTerminateIsSent() {
        try (Subject s = new Subject()) {
            byte[] bad1 = Ulpdus.tagged(true, 0x40, 0x0bad, 0, new byte[4]);
            byte[] bad2 = Ulpdus.untagged(true, 0x4C, 0, 0, 1, 0, new byte[0]);
            s.e.stream.abort(TerminateCause.MPA_CRC_ERROR, "the first error");
            List<String> out = s.feed(bad1, bad2);
            assertThat(out).containsExactly(terminate("20020000"));
            s.e.stream.abort(TerminateCause.RDMAP_LOCAL_CATASTROPHIC, "again");
            assertThat(s.feed()).isEmpty();
            assertThat(s.e.listener.terminatesSent).hasSize(1);
        }
    }

    @Test
    void outstandingWorkIsFlushedInOrderAndTheUntaggedMessageInProgressIsFinishedFirst() {
        try (Subject s = new Subject()) {
            s.e.llp.mulpdu = 128;
            s.e.memory.register(0x5, 0, 64, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
            s.e.stream.submit(Send.of(1, Endpoint.data(new byte[300])));                    // 3 segments
            s.e.stream.submit(new RdmaWrite(2, 0x42, 0, Endpoint.data(new byte[10]), false));
            s.e.stream.submit(new RdmaRead(3, 0x5, 0, 8, 0x9, 0, false));
            s.e.postReceive(10, 8);
            assertThat(s.e.stream.writeNextSegment()).isTrue(); // first segment of the Send is out
            s.e.stream.receive(Conversations.segment(Ulpdus.tagged(true, 0x40, 0x0bad, 0, new byte[4])));
            // every operation and the receive complete at once, in order, FLUSHED
            assertThat(s.e.listener.sends).extracting(SendCompletion::id).containsExactly(1L, 2L, 3L);
            assertThat(s.e.listener.sends).extracting(SendCompletion::status).containsOnly(OperationStatus.FLUSHED);
            assertThat(s.e.listener.receives).extracting(RecordingListener.ReceiveCompletion::status)
                    .containsExactly(OperationStatus.FLUSHED);
            int more = 0;
            while (s.e.stream.writeNextSegment()) {
                more++;
            }
            // the two remaining Send segments (siw rejects interleaved untagged messages), then the Terminate
            assertThat(more).isEqualTo(3);
            List<String> out = Conversations.drain(s.e).stream().map(Ulpdus::hex).toList();
            assertThat(out).hasSize(4);
            assertThat(out.get(3)).startsWith(terminate("1100c000"));
            assertThat(out.get(2)).startsWith("4143"); // last Send segment, L=1
        }
    }

    @Test
    void receivingATerminateStopsTheStream() {
        for (String control : new String[] {"20020000", "02020000"}) { // RFC layout and siw's mirrored one
            try (Subject s = new Subject()) {
                s.e.llp.mulpdu = 128;
                s.e.memory.register(0x5, 0, 64, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
                s.e.stream.submit(new RdmaWrite(1, 0x42, 0, Endpoint.data(new byte[400]), false));
                s.e.stream.submit(new RdmaRead(2, 0x5, 0, 8, 0x9, 0, false));
                s.e.postReceive(10, 8);
                assertThat(s.e.stream.writeNextSegment()).isTrue(); // Write in progress
                byte[] term = Ulpdus.untagged(true, 0x47, 0, 2, 1, 0, HexFormat.of().parseHex(control));
                s.e.stream.receive(Conversations.segment(term));
                assertThat(s.e.stream.state()).isEqualTo(RdmapStreamState.ERROR);
                assertThat(s.e.listener.terminatesReceived).hasSize(1);
                assertThat(s.e.listener.terminatesReceived.get(0).cause()).isEqualTo(TerminateCause.MPA_CRC_ERROR);
                assertThat(s.e.listener.sends).extracting(SendCompletion::status).containsOnly(OperationStatus.FLUSHED);
                assertThat(s.e.listener.receives).hasSize(1);
                assertThat(s.e.stream.writeNextSegment()).isFalse(); // the Write is abandoned, no Terminate back
                assertThat(s.e.listener.terminatesSent).isEmpty();
                // later segments are dropped silently
                byte[] write = Ulpdus.tagged(true, 0x40, 0x1a2b3c4d, 0x100000, new byte[] {1});
                s.e.stream.receive(Conversations.segment(write));
                assertThat(s.writable.bytes()).isEqualTo(s.writableBefore);
            }
        }
    }

    @Test
    void aPeersTerminateIsAttributedToTheOperationWhoseMessageItCopies() {
        try (Subject s = new Subject()) {
            s.e.stream.submit(Send.of(1, Endpoint.data(new byte[4])));
            s.e.stream.submit(new RdmaWrite(2, 0x42, 0x1000, Endpoint.data(new byte[64]), false));
            s.e.stream.submit(Send.of(3, Endpoint.data(new byte[4])));
            while (s.e.stream.writeNextSegment()) {
                // written, but the lower layer has not acknowledged anything yet
            }
            byte[] writeHeader = Ulpdus.tagged(true, 0x40, 0x42, 0x1000, new byte[0]);
            byte[] body = HexFormat.of().parseHex("1101c000" + "004e" + hex(writeHeader));
            s.e.stream.receive(Conversations.segment(Ulpdus.untagged(true, 0x47, 0, 2, 1, 0, body)));
            assertThat(s.e.listener.sends).extracting(SendCompletion::status).containsExactly(
                    OperationStatus.FLUSHED, OperationStatus.REMOTE_ACCESS_ERROR, OperationStatus.FLUSHED);
        }
        try (Subject s = new Subject()) {
            s.e.memory.register(0x5, 0, 64, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
            s.e.stream.submit(Send.of(1, Endpoint.data(new byte[4])));
            s.e.stream.submit(new RdmaRead(2, 0x5, 0, 8, 0x9, 0, false));
            assertThat(s.feed()).hasSize(2); // the Send is complete now, the Read waits for its response
            // the peer had no QN-1 buffer for our Read Request (QN 1, MSN 1): a DDP untagged-buffer error
            byte[] rrHeader = Ulpdus.untagged(true, 0x41, 0, 1, 1, 0, new byte[0]);
            byte[] body = HexFormat.of().parseHex("1202c000" + "002e" + hex(rrHeader));
            s.e.stream.receive(Conversations.segment(Ulpdus.untagged(true, 0x47, 0, 2, 1, 0, body)));
            assertThat(s.e.listener.sends).extracting(SendCompletion::status)
                    .containsExactly(OperationStatus.SUCCESS, OperationStatus.REMOTE_ACCESS_ERROR);
        }
    }

    @Test
    void siwsMirroredReadRequestTerminateIsAttributedByItsReadRequestHeader() {
        // interop FINDINGS F2: siw rebuilds the copied header with the read size (8) in the MSN field
        try (Subject s = new Subject()) {
            s.e.memory.register(0x5, 0, 64, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
            s.e.stream.submit(Send.of(1, Endpoint.data(new byte[4])));
            s.e.stream.submit(new RdmaRead(2, 0x5, 0x10, 8, 0x9, 0x20, false));
            assertThat(s.feed()).hasSize(2);
            byte[] rr = Ulpdus.readRequest(8, 0x5, 0x10, 8, 0x9, 0x20); // MSN field = the size, as siw writes it
            byte[] body = HexFormat.of().parseHex("10000700" + "0000" + hex(rr));
            s.e.stream.receive(Conversations.segment(Ulpdus.untagged(true, 0x47, 0, 2, 1, 0, body)));
            assertThat(s.e.stream.terminateReceived().cause()).isEqualTo(TerminateCause.RDMAP_INVALID_STAG);
            assertThat(s.e.stream.terminateReceived().layout())
                    .isEqualTo(TerminateLayout.SIW_MIRRORED);
            assertThat(s.e.listener.sends).extracting(SendCompletion::status)
                    .containsExactly(OperationStatus.SUCCESS, OperationStatus.REMOTE_ACCESS_ERROR);
        }
    }

    @Test
    void siwsUnexpectedOpcodeTerminateAfterOurMessageIsNotReadAsAnMpaSetupError() {
        try (Subject s = new Subject()) {
            s.e.stream.submit(new RdmapOperation.ImmediateData(1, 42, false, false));
            assertThat(s.feed()).hasSize(1);
            s.e.stream.receive(Conversations.segment(Ulpdus.untagged(true, 0x47, 0, 2, 1, 0,
                    HexFormat.of().parseHex("20060000"))));
            assertThat(s.e.stream.terminateReceived().cause()).isEqualTo(TerminateCause.RDMAP_UNEXPECTED_OPCODE);
        }
        try (Subject s = new Subject()) { // as a responder's first message, the same octets are RFC 6581's
            s.e.stream.receive(Conversations.segment(Ulpdus.untagged(true, 0x47, 0, 2, 1, 0,
                    HexFormat.of().parseHex("20060000"))));
            assertThat(s.e.stream.terminateReceived().cause()).isEqualTo(TerminateCause.MPA_INSUFFICIENT_IRD);
        }
    }

    @Test
    void connectionLostFlushesWithoutATerminate() {
        try (Subject s = new Subject()) {
            s.e.stream.submit(Send.of(1, Endpoint.data(new byte[4])));
            s.e.postReceive(2, 4);
            IllegalStateException cause = new IllegalStateException("RST");
            s.e.stream.connectionLost(cause);
            assertThat(s.e.listener.fatalErrors).containsExactly(cause);
            assertThat(s.e.listener.sends).extracting(SendCompletion::status).containsExactly(OperationStatus.FLUSHED);
            assertThat(s.e.listener.receives).extracting(RecordingListener.ReceiveCompletion::status)
                    .containsExactly(OperationStatus.FLUSHED);
            assertThat(s.e.stream.writeNextSegment()).isFalse();
            assertThat(s.e.stream.terminateSent()).isNull();
        }
    }
}
