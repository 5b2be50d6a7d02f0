package org.iwarp4j.conformance.rdmap;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.DdpSegments;
import org.iwarp4j.conformance.support.PeerScripts;
import org.iwarp4j.conformance.support.RdmapUlpdus;
import org.iwarp4j.conformance.support.VerbsStack;
import org.iwarp4j.conformance.support.VerbsStack.Region;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.SendFlag;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.conformance.support.RdmapUlpdus.IMMEDIATE;
import static org.iwarp4j.conformance.support.RdmapUlpdus.IMMEDIATE_SE;
import static org.iwarp4j.conformance.support.RdmapUlpdus.SEND;
import static org.iwarp4j.conformance.support.RdmapUlpdus.SEND_INV;
import static org.iwarp4j.conformance.support.RdmapUlpdus.SEND_SE;
import static org.iwarp4j.conformance.support.RdmapUlpdus.SEND_SE_INV;
import static org.iwarp4j.conformance.support.RdmapUlpdus.atomicResponse;
import static org.iwarp4j.conformance.support.RdmapUlpdus.readRequest;
import static org.iwarp4j.conformance.support.RdmapUlpdus.readResponse;
import static org.iwarp4j.conformance.support.RdmapUlpdus.untaggedQn0;
import static org.iwarp4j.conformance.support.RdmapUlpdus.write;

/**
 * What the stack puts on the wire as the requester, octet for octet, checked by a scripted peer over a
 * real socket (the stack connects through verbs; the peer answers as a siw-like Responder with CRC): every
 * RDMAP message the verbs API can produce, their QN/MSN numbering, segmentation, ORD, the Read fence and
 * the local completion rules.
 */
class RequesterWireTest {

    private static final Set<SendFlag> SIGNALED = Set.of(SendFlag.SIGNALED);

    /** The stack connected (as Initiator) to a started scripted peer that answered IRD/ORD. */
    private static VerbsStack connect(ScriptedPeer peer, ConnectOptions.Builder options) {
        VerbsStack stack = new VerbsStack(b -> b.signalAll(true));
        peer.start();
        stack.connect(peer.address(), options);
        stack.connected();
        return stack;
    }

    private static void await(ScriptedPeer peer) {
        peer.waitForScriptToComplete(VerbsStack.WAIT);
    }

    @Test
    @Requirement({"RDMAP-02", "RDMAP-03", "RDMAP-04", "RDMAP-17", "RDMAP-20", "EXT-01", "EXT-02", "EXT-07"})
    @DisplayName("RDMAP-02, RDMAP-03, RDMAP-04, RDMAP-17, RDMAP-20, EXT-01, EXT-02, EXT-07: Send, Send with SE, with "
            + "Invalidate, with SE and Invalidate, Immediate Data (+SE) and a zero-length Send leave as untagged QN 0 "
            + "messages with RV=01b, Rsv=0, the opcode of the table, MSN 1..7 in posting order, an Invalidate STag "
            + "only where the opcode has one and exactly 8 octets of Immediate Data")
    void sendFamilyOctets() {
        try (ScriptedPeer peer = PeerScripts.responder(4, 4);
                VerbsStack stack = connect(peer, ConnectOptions.builder())) {
            Region data = stack.region(64, Access.LOCAL_WRITE).put(0, Bytes.ascii("hello iwarp"));
            byte[] hello = Bytes.ascii("hello iwarp");
            Stag inv = new Stag(0x5e6f7081);
            stack.post(new SendWorkRequest.Send(1, List.of(data.sge(0, 11)), SIGNALED));
            stack.post(new SendWorkRequest.Send(2, List.of(data.sge(0, 5)), Set.of(SendFlag.SOLICITED)));
            stack.post(new SendWorkRequest.SendWithInvalidate(3, List.of(data.sge(0, 11)), inv, Set.of()));
            stack.post(new SendWorkRequest.SendWithInvalidate(4, List.of(data.sge(6, 5)), inv,
                    Set.of(SendFlag.SOLICITED)));
            stack.post(new SendWorkRequest.ImmediateData(5, 0x0123456789abcdefL, Set.of()));
            stack.post(new SendWorkRequest.ImmediateData(6, -2L, Set.of(SendFlag.SOLICITED)));
            stack.post(new SendWorkRequest.Send(7, List.of(), Set.of()));
            peer.expectFpdu().withUlpdu(untaggedQn0(SEND, 0, 1, hello)).and()
                    .expectFpdu().withUlpdu(untaggedQn0(SEND_SE, 0, 2, Bytes.ascii("hello"))).and()
                    .expectFpdu().withUlpdu(untaggedQn0(SEND_INV, 0x5e6f7081, 3, hello)).and()
                    .expectFpdu().withUlpdu(untaggedQn0(SEND_SE_INV, 0x5e6f7081, 4, Bytes.ascii("iwarp"))).and()
                    .expectFpdu().withUlpdu(untaggedQn0(IMMEDIATE, 0, 5, Bytes.concat(
                            new byte[] {1, 0x23, 0x45, 0x67, (byte) 0x89, (byte) 0xab, (byte) 0xcd, (byte) 0xef})))
                            .and()
                    .expectFpdu()
                    .withUlpdu(untaggedQn0(IMMEDIATE_SE, 0, 6, ByteBuffer.allocate(8).putLong(-2L).array())).and()
                    .expectFpdu().withUlpdu(untaggedQn0(SEND, 0, 7, new byte[0])).and();
            await(peer);
            assertThat(stack.sendCompletions(7)).extracting(WorkCompletion::wrId)
                    .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
        }
    }

    @Test
    @Requirement({"RDMAP-13", "RDMAP-27", "EXT-07"})
    @DisplayName("RDMAP-13, RDMAP-27, EXT-07: an RDMA Write is one tagged DDP message — segments of at most MULPDU "
            + "with the same STag, TO advancing by the payload sent, L=1 only on the last — a zero-length Write is one "
            + "segment, and Write with Immediate is a Write followed by an Immediate Data message")
    void writeOctetsAndSegmentation() {
        try (ScriptedPeer peer = PeerScripts.responder(4, 4);
             VerbsStack stack = connect(peer, ConnectOptions.builder().mpa(m -> m.emss(256)))) {
            int mulpdu = stack.connected().parameters().mulpdu();
            assertThat(mulpdu).isBetween(128, 256);
            byte[] payload = Bytes.pattern(1000, 3);
            Region data = stack.region(1000, Access.LOCAL_WRITE).put(0, payload);
            Stag remote = new Stag(0x1a2b3c4d);
            long to = 0x0000_7f00_0010_0000L;
            stack.post(new SendWorkRequest.RdmaWrite(1, List.of(data.sge(0, 1000)), remote, to, Set.of()));
            stack.post(new SendWorkRequest.RdmaWrite(2, List.of(), remote, to, Set.of()));
            stack.post(new SendWorkRequest.RdmaWriteWithImmediate(3, List.of(data.sge(0, 16)), remote, to + 64, 99L,
                    Set.of()));
            List<CompletableFuture<DecodedFpdu>> segments = new ArrayList<>();
            int chunk = mulpdu - DdpSegments.TAGGED_HEADER;
            int n = (1000 + chunk - 1) / chunk;
            for (int i = 0; i < n; i++) {
                segments.add(peer.expectFpdu().received());
            }
            peer.expectFpdu().withUlpdu(write(0x1a2b3c4d, to, new byte[0])).and()
                    .expectFpdu().withUlpdu(write(0x1a2b3c4d, to + 64, Arrays.copyOf(payload, 16))).and()
                    .expectFpdu().withUlpdu(untaggedQn0(IMMEDIATE, 0, 1, ByteBuffer.allocate(8).putLong(99L).array()));
            await(peer);
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            for (int i = 0; i < n; i++) {
                byte[] u = segments.get(i).join().ulpdu();
                assertThat(u.length).isLessThanOrEqualTo(mulpdu);
                assertThat(DdpSegments.isTagged(u)).isTrue();
                assertThat(DdpSegments.isLast(u)).as("L only on the last segment").isEqualTo(i == n - 1);
                assertThat(u[1]).as("RV=01b, opcode RDMA Write").isEqualTo((byte) 0x40);
                ByteBuffer b = ByteBuffer.wrap(u);
                assertThat(b.getInt(2)).isEqualTo(0x1a2b3c4d);
                assertThat(b.getLong(6)).isEqualTo(to + joined.size());
                joined.write(u, 14, u.length - 14);
            }
            assertThat(joined.toByteArray()).isEqualTo(payload);
            assertThat(stack.sendCompletions(3)).extracting(WorkCompletion::status)
                    .containsOnly(CompletionStatus.SUCCESS);
        }
    }

    @Test
    @Requirement({"RDMAP-05", "RDMAP-14", "RDMAP-25", "RDMAP-06"})
    @DisplayName("RDMAP-05, RDMAP-06, RDMAP-14, RDMAP-25: a Read is one QN-1 Read Request with the 28-octet header; it "
            + "completes only when the last segment of its Read Response is delivered; a zero-length Read asks for "
            + "size 0")
    void readRequestAndCompletion() {
        try (ScriptedPeer peer = PeerScripts.responder(4, 4);
                VerbsStack stack = connect(peer, ConnectOptions.builder())) {
            Region sink = stack.region(128, Access.LOCAL_WRITE);
            byte[] remoteData = Bytes.pattern(100, 0x30);
            CompletableFuture<Void> firstHalfChecked = new CompletableFuture<>();
            stack.post(new SendWorkRequest.RdmaRead(1, List.of(sink.sge(8, 100)), new Stag(0x11223344), 0x4000,
                    Set.of()));
            stack.post(new SendWorkRequest.RdmaRead(2, List.of(sink.sge(0, 0)), new Stag(0x11223344), 0x4000,
                    Set.of()));
            byte[] rr1 = readRequest(1, sink.stagValue(), sink.to(8), 100, 0x11223344, 0x4000);
            byte[] rr2 = readRequest(2, sink.stagValue(), sink.to(0), 0, 0x11223344, 0x4000);
            byte[] first = DdpSegments.tagged(false, 0x42, sink.stagValue(), sink.to(8), Arrays.copyOf(remoteData, 60));
            byte[] second = readResponse(sink.stagValue(), sink.to(68), Arrays.copyOfRange(remoteData, 60, 100));
            peer.expectFpdu().withUlpdu(rr1).and().expectFpdu().withUlpdu(rr2).and()
                    .sendFpdu(first).waitFor(firstHalfChecked, "the test saw the first half placed")
                    .sendFpdu(second).sendFpdu(readResponse(sink.stagValue(), sink.to(0), new byte[0]));
            VerbsStack.awaitTrue(() -> sink.bytes(8, 60)[59] == remoteData[59], "the first segment placed");
            assertThat(stack.sendCq.size()).as("no completion before the L=1 segment").isZero();
            firstHalfChecked.complete(null);
            await(peer);
            List<WorkCompletion> wcs = stack.sendCompletions(2);
            assertThat(wcs).extracting(WorkCompletion::wrId).containsExactly(1L, 2L);
            assertThat(wcs).extracting(WorkCompletion::opcode).containsOnly(CompletionOpcode.RDMA_READ);
            assertThat(wcs.get(0).byteLength()).isEqualTo(100);
            assertThat(wcs.get(1).byteLength()).isZero();
            assertThat(sink.bytes(8, 100)).isEqualTo(remoteData);
        }
    }

    @Test
    @Requirement({"RDMAP-16", "MPA-67"})
    @DisplayName("RDMAP-16, MPA-67: the Responder's IRD from the Reply (2) becomes the stack's ORD and is never "
            + "exceeded: five Reads put two Read Requests on the wire and each further one only after a Read Response")
    void ordIsNeverExceeded() {
        try (ScriptedPeer peer = PeerScripts.responder(2, 4);
                VerbsStack stack = connect(peer, ConnectOptions.builder().ord(8))) {
            assertThat(stack.connected().parameters().ord()).isEqualTo(2);
            assertThat(stack.connected().parameters().ird()).as("IRD = ORD the Responder asked for")
                    .isGreaterThanOrEqualTo(4);
            Region sink = stack.region(64, Access.LOCAL_WRITE);
            for (int i = 0; i < 5; i++) {
                stack.post(new SendWorkRequest.RdmaRead(i, List.of(sink.sge(i * 8, 8)), new Stag(0x0100), 0x1000L * i,
                        Set.of()));
            }
            for (int msn = 1; msn <= 2; msn++) {
                peer.expectFpdu().withUlpdu(readRequest(msn, sink.stagValue(), sink.to((msn - 1) * 8), 8, 0x0100,
                        0x1000L * (msn - 1))).and();
            }
            peer.expectNoBytesPending();
            for (int k = 0; k < 5; k++) {
                peer.sendFpdu(readResponse(sink.stagValue(), sink.to(k * 8), Bytes.pattern(8, k)));
                if (k + 3 <= 5) {
                    peer.expectFpdu().withUlpdu(readRequest(k + 3, sink.stagValue(), sink.to((k + 2) * 8), 8, 0x0100,
                            0x1000L * (k + 2))).and().expectNoBytesPending();
                }
            }
            await(peer);
            assertThat(stack.sendCompletions(5)).extracting(WorkCompletion::wrId).containsExactly(0L, 1L, 2L, 3L, 4L);
        }
    }

    @Test
    @Requirement({"RDMAP-22", "RDMAP-21"})
    @DisplayName("RDMAP-21, RDMAP-22: a Send and a Write posted after an unanswered Read are sent, but complete only "
            + "after the Read, in posting order")
    void completionsInSubmissionOrder() {
        try (ScriptedPeer peer = PeerScripts.responder(4, 4);
                VerbsStack stack = connect(peer, ConnectOptions.builder())) {
            Region r = stack.region(64, Access.LOCAL_WRITE);
            CompletableFuture<Void> checked = new CompletableFuture<>();
            stack.post(new SendWorkRequest.RdmaRead(1, List.of(r.sge(0, 8)), new Stag(0x0100), 0, Set.of()));
            stack.post(new SendWorkRequest.Send(2, List.of(r.sge(8, 4)), Set.of()));
            stack.post(new SendWorkRequest.RdmaWrite(3, List.of(r.sge(8, 4)), new Stag(0x0200), 0, Set.of()));
            peer.expectFpdu().withUlpdu(readRequest(1, r.stagValue(), r.to(0), 8, 0x0100, 0)).and()
                    .expectFpdu().withUlpdu(untaggedQn0(SEND, 0, 1, new byte[4])).and()
                    .expectFpdu().withUlpdu(write(0x0200, 0, new byte[4])).and()
                    .waitFor(checked, "the test checked that nothing completed")
                    .sendFpdu(readResponse(r.stagValue(), r.to(0), Bytes.pattern(8, 1)));
            peer.run("all three arrived", () -> { });
            VerbsStack.awaitTrue(() -> peer.received().length >= 24 + 52 + 28 + 24, "the three messages at the peer");
            // the Send and the Write are on the wire; they may complete only after the Read (RFC 5040 §5.5)
            assertThat(stack.sendCq.size()).isZero();
            checked.complete(null);
            await(peer);
            assertThat(stack.sendCompletions(3)).extracting(WorkCompletion::wrId).containsExactly(1L, 2L, 3L);
        }
    }

    @Test
    @Requirement({"RDMAP-26", "RDMAP-25"})
    @DisplayName("RDMAP-25, RDMAP-26: with a Read fence a Send waits on the wire until every earlier Read completed; "
            + "without it a later Send may pass the outstanding Read")
    void readFence() {
        try (ScriptedPeer peer = PeerScripts.responder(4, 4);
                VerbsStack stack = connect(peer, ConnectOptions.builder())) {
            Region r = stack.region(64, Access.LOCAL_WRITE);
            stack.post(new SendWorkRequest.RdmaRead(1, List.of(r.sge(0, 8)), new Stag(0x0100), 0, Set.of()));
            stack.post(new SendWorkRequest.Send(2, List.of(r.sge(8, 4)), Set.of()));
            stack.post(new SendWorkRequest.RdmaRead(3, List.of(r.sge(16, 8)), new Stag(0x0100), 0, Set.of()));
            stack.post(new SendWorkRequest.Send(4, List.of(r.sge(8, 4)), Set.of(SendFlag.FENCE)));
            peer.expectFpdu().withUlpdu(readRequest(1, r.stagValue(), r.to(0), 8, 0x0100, 0)).and()
                    .expectFpdu().withUlpdu(untaggedQn0(SEND, 0, 1, new byte[4])).and()
                    .expectFpdu().withUlpdu(readRequest(2, r.stagValue(), r.to(16), 8, 0x0100, 0)).and()
                    .expectNoBytesPending()
                    .sendFpdu(readResponse(r.stagValue(), r.to(0), new byte[8]))
                    .expectNoBytesPending()
                    .sendFpdu(readResponse(r.stagValue(), r.to(16), new byte[8]))
                    .expectFpdu().withUlpdu(untaggedQn0(SEND, 0, 2, new byte[4]));
            await(peer);
            assertThat(stack.sendCompletions(4)).extracting(WorkCompletion::wrId).containsExactly(1L, 2L, 3L, 4L);
        }
    }

    @Test
    @Requirement({"EXT-03", "EXT-06", "EXT-08", "EXT-09", "EXT-10", "EXT-11", "EXT-12"})
    @DisplayName("EXT-03, EXT-06, EXT-08, EXT-09, EXT-10, EXT-11, EXT-12: FetchAdd and CmpSwap leave as QN-1 Atomic "
            + "Requests sharing the MSN space of Read Requests; QN-3 Atomic Responses complete them in order with the "
            + "original value, which is written to the result buffer only then")
    void atomicRequestsAndResponses() {
        try (ScriptedPeer peer = PeerScripts.responder(4, 4);
                VerbsStack stack = connect(peer, ConnectOptions.builder())) {
            Region result = stack.region(64, Access.LOCAL_WRITE);
            Stag target = new Stag(0x99aabbcc);
            stack.post(new SendWorkRequest.RdmaRead(1, List.of(result.sge(32, 8)), new Stag(0x0100), 0, Set.of()));
            stack.post(new SendWorkRequest.AtomicFetchAdd(2, Optional.of(result.sge(0, 8)), target, 0x40, 5, 0,
                    Set.of()));
            stack.post(new SendWorkRequest.AtomicCompareSwap(3, Optional.of(result.sge(8, 8)), target, 0x48, 0x64, -1L,
                    0x1111111111111111L, -1L, Set.of()));
            CompletableFuture<DecodedFpdu> fa = new CompletableFuture<>();
            CompletableFuture<DecodedFpdu> cs = new CompletableFuture<>();
            CompletableFuture<Void> checked = new CompletableFuture<>();
            peer.expectFpdu().withUlpdu(readRequest(1, result.stagValue(), result.to(32), 8, 0x0100, 0)).and();
            peer.expectFpdu().matching(f -> fa.complete(f), "the FetchAdd request").and()
                    .expectFpdu().matching(f -> cs.complete(f), "the CmpSwap request").and()
                    .sendFpdu(readResponse(result.stagValue(), result.to(32), new byte[8]))
                    .waitFor(checked, "the test checked the requests");
            VerbsStack.awaitTrue(() -> fa.isDone() && cs.isDone() || peer.failure() != null, "the two Atomic Requests");
            assertThat(peer.failure()).isNull();
            byte[] faU = fa.join().ulpdu();
            byte[] csU = cs.join().ulpdu();
            int faId = ByteBuffer.wrap(faU).getInt(22);
            int csId = ByteBuffer.wrap(csU).getInt(22);
            // golden fpdu-atomic-fetchadd-request / -cmpswap-request with this stack's request ids
            assertThat(faU).isEqualTo(RdmapUlpdus.atomicRequest(2, 0, faId, 0x99aabbcc,
                    0x40, 5, 0, 0, -1L));
            assertThat(csU).isEqualTo(RdmapUlpdus.atomicRequest(3, 2, csId, 0x99aabbcc,
                    0x48, 0x1111111111111111L, -1L, 0x64, -1L));
            assertThat(faId).isNotEqualTo(csId);
            assertThat(result.bytes(0, 16)).as("nothing written before the responses").containsOnly(0);
            checked.complete(null);
            peer.sendFpdu(atomicResponse(1, faId, 100)).sendFpdu(atomicResponse(2, csId, 0x64));
            await(peer);
            List<WorkCompletion> wcs = stack.sendCompletions(3);
            assertThat(wcs).extracting(WorkCompletion::wrId).containsExactly(1L, 2L, 3L);
            assertThat(wcs.get(1).opcode()).isEqualTo(CompletionOpcode.ATOMIC_FETCH_ADD);
            assertThat(wcs.get(1).atomicOriginalValue()).hasValue(100);
            assertThat(wcs.get(2).opcode()).isEqualTo(CompletionOpcode.ATOMIC_CMP_SWAP);
            assertThat(wcs.get(2).atomicOriginalValue()).hasValue(0x64);
            // RnicConfig default atomic byte order: little-endian
            assertThat(result.buf().order(ByteOrder.LITTLE_ENDIAN).getLong(0)).isEqualTo(100);
            assertThat(result.buf().order(ByteOrder.LITTLE_ENDIAN).getLong(8)).isEqualTo(0x64);
        }
    }
}
