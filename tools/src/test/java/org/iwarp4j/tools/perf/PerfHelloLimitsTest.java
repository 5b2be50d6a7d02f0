package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.RawMpaClient;
import org.iwarp4j.tools.cli.ToolRun;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Stag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The perf server sizes its memory from the client's hello, which comes from the network: a hello asking for
 * more than the client's own options allow is refused with an MPA Reply R=1 and the reason, before anything is
 * allocated (issue 13: a 60-octet Request asking for 2 GiB made the server allocate it).
 */
class PerfHelloLimitsTest {

    private static byte[] hello(int offset, int value) {
        byte[] wire = new PerfHello(PerfVerb.WRITE, false, true, false, 65536, 128,
                new RemoteBuffer(new Stag(0x00abcd01), 0, 4096), 65536, 1, 0, 7, false).encode();
        ByteBuffer.wrap(wire).putInt(offset, value);
        return wire;
    }

    @ParameterizedTest
    @CsvSource({
            "8, -2147483648, message size 2147483648 asked",
            "8, 0, message size 0 asked",
            "8, 8388609, message size 8388609 asked",
            "12, 1048576, depth 1048576",
            "12, 0, depth 0",
            "32, -1, verification buffer of 4294967295 octets",
            "32, 16777217, verification buffer of 16777217 octets"})
    void aHelloBeyondTheClientsOwnLimitsIsRefused(int offset, int value, String reason) {
        assertThatThrownBy(() -> PerfHello.decode(hello(offset, value))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void tooManyQueuePairsOrTooMuchInFlightIsRefused() {
        byte[] wire = hello(12, 15000);
        ByteBuffer.wrap(wire).putShort(PerfHello.QPS_OFFSET, (short) 1025);
        assertThatThrownBy(() -> PerfHello.decode(wire)).hasMessageContaining("1025 queue pairs asked");
        ByteBuffer.wrap(wire).putShort(PerfHello.QPS_OFFSET, (short) 1000);
        assertThatThrownBy(() -> PerfHello.decode(wire)).hasMessageContaining("at most " + PerfOptions.MAX_IN_FLIGHT);
    }

    @Test
    void theLimitsThemselvesAreAccepted() {
        PerfHello h = PerfHello.decode(hello(8, PerfOptions.MAX_SIZE));
        assertThat(h.maxSize()).isEqualTo(PerfOptions.MAX_SIZE);
        assertThat(PerfHello.decode(hello(12, PerfOptions.MAX_TX_DEPTH)).txDepth()).isEqualTo(PerfOptions.MAX_TX_DEPTH);
        assertThat(PerfHello.decode(hello(32, PerfConfig.VERIFY_BUFFER_MAX)).verifyBufferSize())
                .isEqualTo(PerfConfig.VERIFY_BUFFER_MAX);
    }

    @Test
    void theServerAnswersA2GibHelloWithARejectAndItsReason() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "write", "--protocol", "iwarp4j",
                "-p", Integer.toString(port));
        ToolRun.awaitListening(port, server);
        try (RawMpaClient c = RawMpaClient.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
            byte[] reply = c.requestAndReadReply(RawMpaClient.mpaRequest(hello(8, Integer.MIN_VALUE)));
            assertThat(reply[16] & 0x20).as("R=1").isNotZero();
            String reason = new String(Arrays.copyOfRange(reply, 24, reply.length), StandardCharsets.US_ASCII);
            assertThat(reason).contains("message size 2147483648 asked; 1..8388608");
        }
        ToolRun r = server.get(30, TimeUnit.SECONDS);
        assertThat(r.err()).contains("rejected a connection").doesNotContain("Exception").doesNotContain("\tat ");
    }
}
