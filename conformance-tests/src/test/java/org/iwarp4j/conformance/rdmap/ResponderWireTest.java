package org.iwarp4j.conformance.rdmap;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.DdpSegments;
import org.iwarp4j.conformance.support.PeerScripts;
import org.iwarp4j.conformance.support.VerbsStack;
import org.iwarp4j.conformance.support.VerbsStack.Region;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.SendFlag;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.conformance.support.RdmapUlpdus.IMMEDIATE;
import static org.iwarp4j.conformance.support.RdmapUlpdus.SEND;
import static org.iwarp4j.conformance.support.RdmapUlpdus.SEND_INV;
import static org.iwarp4j.conformance.support.RdmapUlpdus.SEND_SE;
import static org.iwarp4j.conformance.support.RdmapUlpdus.atomicRequest;
import static org.iwarp4j.conformance.support.RdmapUlpdus.atomicResponse;
import static org.iwarp4j.conformance.support.RdmapUlpdus.readRequest;
import static org.iwarp4j.conformance.support.RdmapUlpdus.readResponse;
import static org.iwarp4j.conformance.support.RdmapUlpdus.terminateFor;
import static org.iwarp4j.conformance.support.RdmapUlpdus.untaggedQn0;
import static org.iwarp4j.conformance.support.RdmapUlpdus.write;

/**
 * The stack as the data sink and responder (verbs, accepting a scripted siw-like Initiator over a real
 * socket): how it delivers Sends and Immediate Data, places Writes without delivering them, answers Read
 * and Atomic Requests — octets, order, and the ordering guarantees between messages of RFC 5040 §5.5.
 */
class ResponderWireTest {

    /** A listening stack with a source, a sink, an atomic word and four 32-octet receives. */
    static final class Subject implements AutoCloseable {
        final VerbsStack stack = new VerbsStack(b -> b.ird(8));
        final Region source = stack.region(256, Access.REMOTE_READ);
        final Region sink = stack.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        final Region word = stack.region(64, Access.LOCAL_WRITE, Access.REMOTE_ATOMIC);
        final Region recv = stack.region(128, Access.LOCAL_WRITE);
        final InetSocketAddress address;

        Subject() {
            for (int i = 0; i < 256; i++) {
                source.buf().put(i, (byte) (i * 3));
            }
            for (int i = 0; i < 4; i++) {
                stack.receive(i + 1, recv.sge(i * 32, 32));
            }
            address = stack.listen(ListenOptions.builder(), AcceptOptions.defaults().withIrd(8));
        }

        ScriptedPeer peer() {
            return PeerScripts.initiator(address, 4, 8);
        }

        @Override
        public void close() {
            stack.close();
        }
    }

    @Test
    @Requirement({"RDMAP-06", "RDMAP-14", "RDMAP-15", "RDMAP-24", "RDMAP-26"})
    @DisplayName("RDMAP-06, RDMAP-14, RDMAP-15, RDMAP-24, RDMAP-26: Read Requests arriving together are answered in "
            + "request order by tagged Read Responses carrying the request's sink STag and TO; a zero-length one is "
            + "not validated and gets a zero-length response")
    void readResponsesInRequestOrder() {
        try (Subject s = new Subject(); ScriptedPeer peer = s.peer()) {
            byte[] src = s.source.bytes(0, 256);
            peer.send(PeerScripts.fpdus(
                            readRequest(1, 0x77000000, 0x1000, 100, s.source.stagValue(), s.source.to(0)),
                            readRequest(2, 0x78000000, 0x2000, 0, 0xdeadbe00, 0xffff_ffff_ffff_ff00L),
                            readRequest(3, 0x79000000, 0x3000, 40, s.source.stagValue(), s.source.to(200))))
                    .expectFpdu().withUlpdu(readResponse(0x77000000, 0x1000, Arrays.copyOf(src, 100))).and()
                    .expectFpdu().withUlpdu(readResponse(0x78000000, 0x2000, new byte[0])).and()
                    .expectFpdu().withUlpdu(readResponse(0x79000000, 0x3000, Arrays.copyOfRange(src, 200, 240))).and()
                    .start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
            assertThat(s.stack.recvCq.size()).as("Read Requests are not delivered to the ULP").isZero();
        }
    }

    @Test
    @Requirement({"RDMAP-13", "RDMAP-23", "RDMAP-24"})
    @DisplayName("RDMAP-13, RDMAP-23, RDMAP-24: Write, Send, Read Request sent together: the Write is placed and never "
            + "delivered, the Send is delivered (with the Write's data already placed) before the Read Response is "
            + "generated")
    void writeBeforeSendBeforeRead() {
        try (Subject s = new Subject(); ScriptedPeer peer = s.peer()) {
            byte[] data = Bytes.pattern(16, 0x41);
            AtomicInteger receivesAtResponse = new AtomicInteger(-1);
            AtomicReference<byte[]> sinkAtResponse = new AtomicReference<>();
            peer.send(PeerScripts.fpdus(write(s.sink.stagValue(), s.sink.to(8), data),
                            untaggedQn0(SEND, 0, 1, Bytes.ascii("go")),
                            readRequest(1, 0x77000000, 0x1000, 8, s.source.stagValue(), s.source.to(0))))
                    .expectFpdu().withUlpdu(readResponse(0x77000000, 0x1000, s.source.bytes(0, 8))).and()
                    .run("look at the stack when the Read Response arrived", () -> {
                        receivesAtResponse.set(s.stack.recvCq.size());
                        sinkAtResponse.set(s.sink.bytes(8, 16));
                    }).start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
            assertThat(receivesAtResponse.get()).as("the Send completed before the Read Response was generated")
                    .isEqualTo(1);
            assertThat(sinkAtResponse.get()).isEqualTo(data);
            WorkCompletion wc = s.stack.recvCompletion();
            assertThat(wc.opcode()).isEqualTo(CompletionOpcode.RECV);
            assertThat(wc.byteLength()).isEqualTo(2);
            assertThat(s.stack.recvCq.size()).as("the Write produced no receive completion").isZero();
        }
    }

    @Test
    @Requirement({"RDMAP-17", "RDMAP-23", "EXT-07", "RDMAP-02", "RDMAP-04"})
    @DisplayName("RDMAP-02, RDMAP-04, RDMAP-17, RDMAP-23, EXT-07: Sends, a zero-length Send and Immediate Data each "
            + "take the next receive, in the order sent, with their length; Rsv bits and an Invalidate STag on a plain "
            + "Send are ignored")
    void deliveryOfSendsAndImmediateData() {
        try (Subject s = new Subject(); ScriptedPeer peer = s.peer()) {
            byte[] five = Bytes.ascii("five!");
            byte[] rsvSet = DdpSegments.untagged(
                    DdpSegments.control(false, true, 0, 1), 0x70 | SEND_SE, 0xdeadbeef, 0, 4, 0,
                    Bytes.pattern(20, 1));
            peer.send(PeerScripts.fpdus(untaggedQn0(SEND, 0x5e6f7081, 1, five), untaggedQn0(SEND, 0, 2, new byte[0]),
                    untaggedQn0(IMMEDIATE, 0x11111111, 3, Bytes.pattern(8, 0xa0)), rsvSet)).start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
            List<WorkCompletion> wcs = s.stack.recvCompletions(4);
            assertThat(wcs).extracting(WorkCompletion::wrId).containsExactly(1L, 2L, 3L, 4L);
            assertThat(wcs).extracting(WorkCompletion::status).containsOnly(CompletionStatus.SUCCESS);
            assertThat(wcs).extracting(WorkCompletion::byteLength).containsExactly(5L, 0L, 0L, 20L);
            assertThat(wcs).extracting(WorkCompletion::invalidatedStag).containsOnly(Optional.empty());
            assertThat(wcs.get(2).opcode()).isEqualTo(CompletionOpcode.RECV_WITH_IMMEDIATE);
            assertThat(wcs.get(2).immediateData()).hasValue(ByteBuffer.wrap(Bytes.pattern(8, 0xa0)).getLong());
            assertThat(wcs.get(3).solicited()).isTrue();
            assertThat(s.recv.bytes(0, 5)).isEqualTo(five);
            assertThat(s.recv.bytes(96, 20)).isEqualTo(Bytes.pattern(20, 1));
        }
    }

    @Test
    @Requirement({"RDMAP-18", "RDMAP-32"})
    @DisplayName("RDMAP-18, RDMAP-32: a Send with Invalidate naming a fast-registered region of this stream's PD "
            + "invalidates it before the receive completes; a later Write to it is a DDP Invalid STag error")
    void sendWithInvalidateInvalidates() throws Exception {
        try (Subject s = new Subject()) {
            MemoryRegion fr = s.stack.pd.allocateFastRegistration(64);
            Stag stag = fr.stag().withNextKey();
            CompletableFuture<Void> registered = new CompletableFuture<>();
            AtomicReference<Boolean> validAtCompletion = new AtomicReference<>();
            try (ScriptedPeer peer = s.peer()) {
                peer.sendFpdu(untaggedQn0(SEND, 0, 1, Bytes.ascii("hi")))
                        .waitFor(registered, "the fast registration (needs RTS)")
                        .sendFpdu(untaggedQn0(SEND_INV, stag.value(), 2, Bytes.ascii("inv")))
                        .run("wait for the receive completion", () -> {
                            WorkCompletion wc = s.stack.recvCompletions(2).get(1);
                            validAtCompletion.set(fr.isValid());
                            assertThat(wc.invalidatedStag()).contains(stag);
                        });
                peer.start();
                s.stack.connected();
                s.stack.post(new SendWorkRequest.FastRegister(9, fr, ByteBuffer.allocateDirect(64), stag,
                        Set.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE), Set.of(SendFlag.SIGNALED)));
                assertThat(s.stack.sendCompletion().status()).isEqualTo(CompletionStatus.SUCCESS);
                byte[] lateWrite = write(stag.value(), fr.address(), Bytes.pattern(8, 1));
                peer.sendFpdu(lateWrite)
                        .expectFpdu().withUlpdu(terminateFor(1, 1, 0x00, lateWrite, false)).and().expectFin();
                registered.complete(null);
                peer.waitForScriptToComplete(VerbsStack.WAIT);
            }
            assertThat(validAtCompletion.get()).isFalse();
        }
    }

    /** RFC 7306 §5.1.1 masked add, written independently of the stack: carries stop at mask bits. */
    static long maskedAdd(long orig, long add, long mask) {
        long result = 0;
        long carry = 0;
        for (int i = 0; i < 64; i++) {
            long sum = ((orig >>> i) & 1) + ((add >>> i) & 1) + carry;
            result |= (sum & 1) << i;
            carry = ((mask >>> i) & 1) == 1 ? 0 : sum >>> 1;
        }
        return result;
    }

    @Test
    @Requirement({"EXT-03", "EXT-06", "EXT-09", "EXT-10", "EXT-11"})
    @DisplayName("EXT-03, EXT-06, EXT-09, EXT-10, EXT-11: FetchAdd (plain and masked) and CmpSwap (match and no match) "
            + "are executed in request order on the target word and answered by QN-3 Atomic Responses, MSN 1..4, "
            + "carrying the request id and the original value")
    void atomicResponderMaths() {
        try (Subject s = new Subject(); ScriptedPeer peer = s.peer()) {
            ByteBuffer le = s.word.buf().duplicate().order(ByteOrder.LITTLE_ENDIAN);
            long start = 0x00ff_00ff_00ff_00ffL;
            le.putLong(8, start);
            long v1 = start + 0x0101;
            long mask = 0x8080_8080_8080_8080L;
            long v2 = maskedAdd(v1, 0x0101_0101_0101_0101L, mask);
            long v3 = v2; // compare fails: unchanged
            long v4 = (v3 & ~0xffffL) | (0xabcdL & 0xffffL); // compare on the high half matches; swap the low 16 bits
            int stag = s.word.stagValue();
            long to = s.word.to(8);
            peer.send(PeerScripts.fpdus(
                            atomicRequest(1, 0, 101, stag, to, 0x0101, 0, 0, -1L),
                            atomicRequest(2, 0, 102, stag, to, 0x0101_0101_0101_0101L, mask, 0, -1L),
                            atomicRequest(3, 2, 103, stag, to, 7, -1L, v2 + 1, -1L),
                            atomicRequest(4, 2, 104, stag, to, 0xabcdL, 0xffffL, v3 & ~0xffffL, ~0xffffL)))
                    .expectFpdu().withUlpdu(atomicResponse(1, 101, start)).and()
                    .expectFpdu().withUlpdu(atomicResponse(2, 102, v1)).and()
                    .expectFpdu().withUlpdu(atomicResponse(3, 103, v2)).and()
                    .expectFpdu().withUlpdu(atomicResponse(4, 104, v3)).and().start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
            assertThat(le.getLong(8)).isEqualTo(v4);
            assertThat(le.getLong(0)).as("the neighbouring word is untouched").isZero();
        }
    }
}
