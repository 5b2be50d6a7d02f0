package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.rdmap.stream.RdmapOperation.Send;
import org.iwarp4j.rdmap.stream.RecordingListener.ReceiveCompletion;
import org.iwarp4j.rdmap.stream.RecordingListener.SendCompletion;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The internal zero-length RDMA Write ({@link RdmapStream#sendZeroLengthWrite()}) that wakes a Linux siw
 * Responder whose accept race stranded the Initiator's first FPDU (interop/FINDINGS.md M15).
 */
class ZeroLengthWriteTest {

    /** RFC 5041 §4.2 tagged header, T=1 L=1 DV=1, RDMAP RV=1 opcode 0 (Write), STag 1, TO 0, no payload. */
    private static final String ZERO_LENGTH_WRITE = "c140" + "00000001" + "0000000000000000";

    @Test
    void isTheWriteRtrFormatAfterWhatWasSubmittedAndCompletesNothing() {
        try (Endpoint e = Endpoint.create()) {
            e.stream.submit(Send.of(7, Endpoint.data("ping".getBytes(StandardCharsets.US_ASCII))));
            assertThat(e.stream.sendZeroLengthWrite()).isTrue();
            assertThat(e.flush()).isEqualTo(2);
            byte[] send = e.llp.takeBytes();
            assertThat(send[1] & 0x0F).isEqualTo(RdmapOpcode.SEND.code());
            assertThat(HexFormat.of().formatHex(e.llp.takeBytes())).isEqualTo(ZERO_LENGTH_WRITE);
            assertThat(e.listener.sends).containsExactly(
                    new SendCompletion(7, OperationType.SEND, OperationStatus.SUCCESS, 4, 0));
            assertThat(e.listener.rtrsSent).isEmpty();
        }
    }

    @Test
    void oneAtATime() {
        try (Endpoint e = Endpoint.create()) {
            assertThat(e.stream.sendZeroLengthWrite()).isTrue();
            assertThat(e.stream.sendZeroLengthWrite()).as("one is pending").isFalse();
            assertThat(e.flush()).isEqualTo(1);
            assertThat(e.stream.sendZeroLengthWrite()).as("the first completed").isTrue();
            assertThat(e.flush()).isEqualTo(1);
            assertThat(e.llp.written()).isEqualTo(2);
        }
    }

    @Test
    void neverTakesASlotOfTheCallersSendQueue() {
        RdmapStreamConfig depth2 = RdmapStreamConfig.defaults().withQueueDepths(2, 4);
        try (Endpoint e = new Endpoint(depth2, 1500)) {
            e.stream.submit(Send.of(1, Endpoint.data(new byte[1])));
            assertThat(e.stream.sendZeroLengthWrite()).isTrue();
            e.stream.submit(Send.of(2, Endpoint.data(new byte[1])));
            ByteBuf third = Endpoint.data(new byte[1]);
            assertThatThrownBy(() -> e.stream.submit(Send.of(3, third))).hasMessageContaining("send queue full");
            assertThat(e.flush()).isEqualTo(3);
            assertThat(e.listener.sends).extracting(SendCompletion::id).containsExactly(1L, 2L);
        }
    }

    @Test
    void thePeerPlacesAndDeliversNothingAndCarriesOn() {
        try (Pair p = Pair.create()) {
            ByteBuf r1 = p.b.postReceive(1, 16);
            assertThat(p.a.stream.sendZeroLengthWrite()).isTrue();
            p.a.stream.submit(Send.of(9, Endpoint.data("after".getBytes(StandardCharsets.US_ASCII))));
            p.run();
            assertThat(p.b.stream.state()).isEqualTo(RdmapStreamState.OPERATIONAL);
            assertThat(p.b.listener.terminatesSent).isEmpty();
            assertThat(p.b.listener.receives).containsExactly(
                    new ReceiveCompletion(1, OperationStatus.SUCCESS, RdmapOpcode.SEND, 5, 0, 0));
            assertThat(r1.toString(0, 5, StandardCharsets.US_ASCII)).isEqualTo("after");
            assertThat(p.a.listener.sends).extracting(SendCompletion::id).containsExactly(9L);
        }
    }

    @Test
    void refusedOnceTheStreamFailed() {
        try (Endpoint e = Endpoint.create()) {
            e.stream.abort(TerminateCause.RDMAP_LOCAL_CATASTROPHIC, "test");
            e.flush();
            assertThat(e.stream.sendZeroLengthWrite()).isFalse();
        }
    }
}
