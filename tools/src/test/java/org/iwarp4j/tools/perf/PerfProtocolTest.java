package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.assertj.core.data.Percentage;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Stag;
import org.junit.jupiter.api.Test;

/** The perf protocol's private data and control messages, the verification pattern and the bandwidth meter. */
class PerfProtocolTest {

    @Test
    void helloRoundTripsAndFitsSiwsPrivateDataLimit() {
        PerfHello h = new PerfHello(PerfVerb.READ, false, true, false, 1 << 23, 128,
                new RemoteBuffer(new Stag(0x00abcd01), 0x7f00_1234_5678L, 4096), 16 << 20, 64, 0, 0xcafe_f00d, false);
        byte[] wire = h.encode();
        // siw-interop §B: at most 252 octets of application private data with MPA revision 2.
        assertThat(wire).hasSize(PerfHello.LENGTH).hasSizeLessThanOrEqualTo(252);
        assertThat(wire[0]).isEqualTo((byte) 'I');
        // protocol 2: the client buffer at octet 16 (address, STag, length), then the verification buffer size
        ByteBuffer b = ByteBuffer.wrap(wire);
        assertThat(b.getLong(16)).isEqualTo(0x7f00_1234_5678L);
        assertThat(b.getInt(24)).isEqualTo(0x00abcd01);
        assertThat(b.getInt(28)).isEqualTo(4096);
        assertThat(b.getInt(32)).isEqualTo(16 << 20);
        // then the run: 64 queue pairs, this is queue pair 0, the token
        assertThat(b.getShort(36)).isEqualTo((short) 64);
        assertThat(b.getShort(38)).isEqualTo((short) 0);
        assertThat(b.getInt(40)).isEqualTo(0xcafe_f00d);
        assertThat(PerfHello.decode(wire)).isEqualTo(h);
        assertThatThrownBy(() -> PerfHello.decode(new byte[10])).isInstanceOf(IllegalArgumentException.class);
        wire[0] = 'X';
        assertThatThrownBy(() -> PerfHello.decode(wire)).hasMessageContaining("magic");
    }

    @Test
    void theQueuePairsOfOneRunShareTestAndToken() {
        RemoteBuffer buffer = new RemoteBuffer(new Stag(0x1201), 0x1000, 65536);
        PerfHello first = new PerfHello(PerfVerb.WRITE, false, false, false, 65536, 128, buffer, 0, 4, 0, 77, false);
        PerfHello third = first.forQueuePair(2);
        assertThat(PerfHello.decode(third.encode())).isEqualTo(third).extracting(PerfHello::qpIndex).isEqualTo(2);
        assertThat(third.sameRun(first)).isTrue();
        assertThat(new PerfHello(PerfVerb.WRITE, false, false, false, 65536, 128, buffer, 0, 4, 2, 78, false)
                .sameRun(first))
                .as("another client's token").isFalse();
        assertThat(new PerfHello(PerfVerb.READ, false, false, false, 65536, 128, buffer, 0, 4, 2, 77, false)
                .sameRun(first))
                .as("another test").isFalse();
        byte[] beyond = new PerfHello(PerfVerb.WRITE, false, false, false, 64, 1, buffer, 0, 4, 4, 77, false).encode();
        assertThatThrownBy(() -> PerfHello.decode(beyond)).hasMessageContaining("queue pair 4 of 4");
    }

    @Test
    void runToCompletionIsAFlagOfProtocol3() {
        RemoteBuffer buffer = new RemoteBuffer(new Stag(0x1201), 0x1000, 65536);
        PerfHello h = new PerfHello(PerfVerb.SEND, true, false, false, 64, 1, buffer, 0, 1, 0, 5, true);
        byte[] wire = h.encode();
        assertThat(wire[PerfHello.VERSION_OFFSET]).isEqualTo((byte) 3);
        assertThat(wire[PerfHello.FLAGS_OFFSET]).isEqualTo((byte) (PerfHello.FLAG_LATENCY
                | PerfHello.FLAG_RUN_TO_COMPLETION));
        assertThat(PerfHello.decode(wire)).isEqualTo(h).extracting(PerfHello::runToCompletion).isEqualTo(true);
        assertThat(h.forQueuePair(0).runToCompletion()).isTrue();
        assertThat(PerfHello.decode(new PerfHello(PerfVerb.SEND, true, false, false, 64, 1, buffer, 0, 1, 0, 5, false)
                .encode()).runToCompletion()).isFalse();
        // a bit this protocol does not know is refused, not ignored
        byte[] unknown = wire.clone();
        unknown[PerfHello.FLAGS_OFFSET] |= 0x08;
        assertThatThrownBy(() -> PerfHello.decode(unknown)).hasMessageContaining("unknown flags 0x08");
    }

    @Test
    void aProtocol2HelloIsTakenWithoutTheNewFlagAndOthersAreRefused() {
        RemoteBuffer buffer = new RemoteBuffer(new Stag(0x1201), 0x1000, 65536);
        byte[] old = new PerfHello(PerfVerb.SEND, false, true, false, 64, 8, buffer, 4096, 1, 0, 5, false).encode();
        old[PerfHello.VERSION_OFFSET] = 2; // an iwarp4j of protocol 2: the same 44 octets
        PerfHello h = PerfHello.decode(old);
        assertThat(h.verify()).isTrue();
        assertThat(h.runToCompletion()).isFalse();
        old[PerfHello.FLAGS_OFFSET] |= PerfHello.FLAG_RUN_TO_COMPLETION;
        assertThatThrownBy(() -> PerfHello.decode(old)).hasMessageContaining("unknown flags 0x04 in a protocol 2");
        old[PerfHello.VERSION_OFFSET] = 1;
        assertThatThrownBy(() -> PerfHello.decode(old)).hasMessageContaining("perf protocol 1 asked")
                .hasMessageContaining("2..3");
        old[PerfHello.VERSION_OFFSET] = 4;
        assertThatThrownBy(() -> PerfHello.decode(old)).hasMessageContaining("perf protocol 4 asked");
        // the welcome keeps protocol 2's version and layout, so that a protocol 2 client reads it
        byte[] welcome = new PerfWelcome(16, buffer).encode();
        assertThat(welcome[4]).isEqualTo((byte) 2);
    }

    @Test
    void welcomeRoundTrips() {
        PerfWelcome w = new PerfWelcome(512, new RemoteBuffer(new Stag(0x1201), 0x7f00_0000_1000L, 65536));
        byte[] wire = w.encode();
        assertThat(PerfWelcome.decode(wire)).isEqualTo(w);
        // protocol 2: credits at octet 8, the server buffer at 12 (address, STag, length)
        ByteBuffer b = ByteBuffer.wrap(wire);
        assertThat(b.getInt(8)).isEqualTo(512);
        assertThat(b.getLong(12)).isEqualTo(0x7f00_0000_1000L);
        assertThat(b.getInt(20)).isEqualTo(0x1201);
        assertThat(b.getInt(24)).isEqualTo(65536);
        assertThatThrownBy(() -> PerfWelcome.decode(new byte[0])).hasMessageContaining("not an iwarp perf server");
    }

    @Test
    void controlMessagesRoundTripInBigEndian() {
        ControlMessage m = new ControlMessage(ControlMessage.Type.RESULT, 65536, 5000, 1_000_000_000L,
                Double.doubleToLongBits(1.5e9), 327_680_000L, 7);
        ByteBuffer b = ByteBuffer.allocate(ControlMessage.LENGTH);
        m.writeTo(b);
        assertThat(b.getInt(0)).isEqualTo(ControlMessage.Type.RESULT.ordinal());
        assertThat(b.get(4)).isEqualTo((byte) 0); // 65536 = 0x00010000, big-endian
        assertThat(b.get(5)).isEqualTo((byte) 1);
        assertThat(ControlMessage.readFrom(b, 0)).isEqualTo(m);
        b.putInt(0, 99);
        assertThatThrownBy(() -> ControlMessage.readFrom(b, 0)).hasMessageContaining("unknown");
    }

    @Test
    void anAckCarriesTheServersCpuReading() {
        // START is new in protocol 2, after the types of protocol 1 (their numbers do not move)
        assertThat(ControlMessage.Type.START.ordinal()).isEqualTo(6);
        assertThat(ControlMessage.Type.DONE.ordinal()).isEqualTo(5);
        ControlMessage ack = ControlMessage.ackWithCpu(3, new CpuClock.Sample(7_000_000_123L, CpuClock.UNKNOWN));
        ByteBuffer b = ByteBuffer.allocate(ControlMessage.LENGTH);
        ack.writeTo(b);
        assertThat(b.getLong(16)).isEqualTo(3); // a: the verification status
        assertThat(b.getLong(24)).isEqualTo(7_000_000_123L);
        assertThat(b.getLong(32)).isEqualTo(-1);
        ControlMessage back = ControlMessage.readFrom(b, 0);
        assertThat(back.type()).isEqualTo(ControlMessage.Type.ACK);
        assertThat(back.cpu()).isEqualTo(new CpuClock.Sample(7_000_000_123L, CpuClock.UNKNOWN));
    }

    @Test
    void thePatternDependsOnRoundAndOffsetAndFindsAWrongOctet() {
        ByteBuffer b = ByteBuffer.allocateDirect(4096);
        VerifyPattern.fill(b, 0, 3, 8192, 4096);
        assertThat(VerifyPattern.firstMismatch(b, 0, 3, 8192, 4096)).isEqualTo(-1);
        assertThat(VerifyPattern.firstMismatch(b, 0, 4, 8192, 4096)).isGreaterThanOrEqualTo(0); // another round
        assertThat(VerifyPattern.firstMismatch(b, 0, 3, 8192 + 4096, 4096)).isGreaterThanOrEqualTo(0); // misplaced
        b.put(1000, (byte) (b.get(1000) ^ 1));
        assertThat(VerifyPattern.firstMismatch(b, 0, 3, 8192, 4096)).isEqualTo(1000);
    }

    @Test
    void peakIsTheBestFiveMillisecondWindow() {
        BandwidthMeter m = new BandwidthMeter();
        m.start(0);
        // 10 ms at 1 op/µs, then 10 ms at 5 ops/µs.
        long ops = 0;
        for (long t = 100_000; t <= 20_000_000; t += 100_000) {
            ops += t <= 10_000_000 ? 100 : 500;
            m.record(t, ops);
        }
        assertThat(m.averageRate()).isCloseTo(3e6, Percentage.withPercentage(1));
        assertThat(m.peakRate()).isCloseTo(5e6, Percentage.withPercentage(1));
    }
}
