package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.iwarp4j.tools.cli.ToolRun;
import org.iwarp4j.tools.report.TinyJson;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our perftest client and server against what perftest 4.5 itself sends on its control connection, recorded in the
 * siw lab ({@code perftest-4.5-control.txt} beside this class, from the captures of the matrix's {@code perftest-*}
 * cells). {@link PerftestProtocolTest} pairs our client with our server, so a step both do alike (an extra
 * handshake at each end, say) passes there and fails only against perftest; here each end's Sends on the control
 * connection must be perftest's own, in number, order and length.
 */
class PerftestRecordedExchangeTest {

    /** DDP's untagged header (RFC 5041 §4.3) with RDMAP's control field: what a Send's ULPDU has before its data. */
    private static final int SEND_HEADER = 18;

    /** One line of the recording: the arguments of our test, and perftest's client's and server's Sends. */
    record Recorded(String test, List<Integer> client, List<Integer> server) {
        @Override
        public String toString() {
            return test;
        }
    }

    static Stream<Arguments> recorded() throws IOException {
        List<Arguments> out = new ArrayList<>();
        try (InputStream in = PerftestRecordedExchangeTest.class.getResourceAsStream("perftest-4.5-control.txt")) {
            assertThat(in).as("the recording beside this class").isNotNull();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\\|");
                assertThat(f).as(line).hasSize(3);
                out.add(Arguments.of(new Recorded(f[0].trim(), lengths(f[1]), lengths(f[2]))));
            }
        }
        assertThat(out).hasSizeGreaterThanOrEqualTo(8);
        return out.stream();
    }

    /** "16 4 4 2" as lengths; "-" (not recorded) as null. */
    private static List<Integer> lengths(String field) {
        String t = field.trim();
        return t.equals("-") ? null : Arrays.stream(t.split("\\s+")).map(Integer::valueOf).toList();
    }

    @ParameterizedTest
    @MethodSource("recorded")
    void eachEndSendsWhatPerftestSendsOnItsControlConnection(Recorded r, @TempDir Path dir) {
        Path pcap = dir.resolve("perftest.pcap");
        List<String> args = new ArrayList<>(List.of("perf"));
        args.addAll(List.of(r.test().split(" ")));
        args.addAll(List.of("--loopback", "--protocol", "perftest", "--pcap", pcap.toString()));
        if (!r.test().contains("-D")) {
            args.addAll(List.of("-n", "50"));
        }
        ToolRun run = ToolRun.run(args.toArray(String[]::new));
        assertThat(run.exit()).as(run.toString()).isZero();
        ToolRun summary = ToolRun.run("explain", "--pcap", pcap.toString(), "--summary");
        assertThat(summary.exit()).as(summary.toString()).isZero();
        List<Map<String, Object>> connections = TinyJson.parseArrayOfObjects(summary.out());
        assertThat(connections).as("the control connection and the test connection").hasSizeGreaterThanOrEqualTo(2);
        Map<String, Object> control = connections.get(0); // the first connected, as perftest does
        if (r.client() != null) {
            assertThat(sends(control, "initiatorSent")).as("our client's Sends (perftest's client: %s)", r.client())
                    .isEqualTo(r.client());
        }
        if (r.server() != null) {
            assertThat(sends(control, "responderSent")).as("our server's Sends (perftest's server: %s)", r.server())
                    .isEqualTo(r.server());
        }
    }

    /** The payload length of each message one end sent, in order; every one must be a Send. */
    @SuppressWarnings("unchecked")
    private static List<Integer> sends(Map<String, Object> connection, String end) {
        Map<String, Object> sent = (Map<String, Object>) connection.get(end);
        List<Object> ops = (List<Object>) sent.get("ops");
        assertThat(ops).as(end + " on the control connection").allMatch("SEND"::equals);
        List<Object> ulpdus = (List<Object>) sent.get("ulpduLengths");
        return ulpdus.stream().map(n -> ((Number) n).intValue() - SEND_HEADER).toList();
    }
}
