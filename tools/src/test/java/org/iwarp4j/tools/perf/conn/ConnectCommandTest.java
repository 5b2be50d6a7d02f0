package org.iwarp4j.tools.perf.conn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iwarp4j.tools.cli.ToolRun;
import org.iwarp4j.tools.report.TinyJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code iwarp perf connect}: the report's structure and counts, over loopback and against a server. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConnectCommandTest {

    static final Pattern RATE = Pattern.compile("^ connections/s +: median (\\d+\\.\\d) \\(min (\\d+\\.\\d), max "
            + "(\\d+\\.\\d), (\\d+) batches of (\\d+)\\); overall (\\d+\\.\\d)$", Pattern.MULTILINE);
    static final Pattern LATENCY = Pattern.compile("^ (setup|teardown) \\[usec\\] +: min (\\d+\\.\\d)  p50 (\\d+\\.\\d)"
            + "  p90 (\\d+\\.\\d)  p99 (\\d+\\.\\d)  p99\\.9 (\\d+\\.\\d)  max (\\d+\\.\\d)  \\(", Pattern.MULTILINE);
    static final Pattern ALLOCATED = Pattern.compile("^ allocated/conn +: (\\d+) B in all threads \\(connect-initiator "
            + "(\\d+) B(?:, connect-responder (\\d+) B)?, other (\\d+) B\\)$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @Test
    void loopbackReportsRateLatencyAndAllocation() throws Exception {
        Path json = dir.resolve("connect.json");
        ToolRun r = ToolRun.run("perf", "connect", "--loopback", "-n", "30", "--warmup", "5", "--batch", "10",
                "--in-flight", "4", "--addresses", "2", "--out_json", json.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(ConnectCommand.TITLE)
                .contains("Connections     : 30 measured after 5 warm-up, at most 4 in flight, batches of 10")
                .contains("listening on 2 addresses 127.0.0.1 .. 127.0.0.2");

        Matcher rate = RATE.matcher(r.out());
        assertThat(rate.find()).as(r.out()).isTrue();
        double median = Double.parseDouble(rate.group(1));
        double min = Double.parseDouble(rate.group(2));
        double max = Double.parseDouble(rate.group(3));
        assertThat(Integer.parseInt(rate.group(4))).isEqualTo(3);
        assertThat(Integer.parseInt(rate.group(5))).isEqualTo(10);
        assertThat(min).isPositive();
        assertThat(median).isBetween(min, max);

        Matcher latency = LATENCY.matcher(r.out());
        for (String which : List.of("setup", "teardown")) {
            assertThat(latency.find()).as(r.out()).isTrue();
            assertThat(latency.group(1)).isEqualTo(which);
            double previous = 0;
            for (int g = 2; g <= 7; g++) {
                double v = Double.parseDouble(latency.group(g));
                assertThat(v).as(which + " column " + g).isGreaterThanOrEqualTo(previous);
                previous = v;
            }
        }

        Matcher alloc = ALLOCATED.matcher(r.out());
        assertThat(alloc.find()).as(r.out()).isTrue();
        long total = Long.parseLong(alloc.group(1));
        long initiator = Long.parseLong(alloc.group(2));
        long responder = Long.parseLong(alloc.group(3));
        long other = Long.parseLong(alloc.group(4));
        // each group is rounded down on its own
        assertThat(initiator + responder + other).isBetween(total - 3, total);
        assertThat(initiator).isPositive();
        assertThat(responder).isPositive();

        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) TinyJson.parse(Files.readString(json));
        assertThat(doc.get("test")).isEqualTo("connect");
        assertThat(doc.get("connections")).isEqualTo(30L);
        assertThat(doc.get("targets")).asList().hasSize(2);
        @SuppressWarnings("unchecked")
        Map<String, Object> rates = (Map<String, Object>) doc.get("connections_per_second");
        assertThat((List<?>) rates.get("batches")).hasSize(3);
        @SuppressWarnings("unchecked")
        Map<String, Object> setup = (Map<String, Object>) doc.get("setup");
        @SuppressWarnings("unchecked")
        Map<String, Object> teardown = (Map<String, Object>) doc.get("teardown");
        assertThat(setup.get("count")).isEqualTo(30L);
        assertThat(teardown.get("count")).isEqualTo(30L);
        @SuppressWarnings("unchecked")
        Map<String, Object> allocated = (Map<String, Object>) doc.get("allocated");
        assertThat(allocated).containsKeys("connect_initiator_bytes_per_connection",
                "connect_responder_bytes_per_connection", "other_bytes_per_connection", "total_bytes_per_connection");
        assertThat(allocated.get("total_bytes_per_connection")).isEqualTo(total);
    }

    @Test
    void clientAgainstServerThatEndsAfterItsConnections() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "connect", "--bind", "127.0.0.1", "-p",
                Integer.toString(port), "--exit-after", "25");
        ToolRun.awaitListening(port, server);
        ToolRun client = ToolRun.run("perf", "connect", "127.0.0.1", "-p", Integer.toString(port), "-n", "20",
                "--warmup", "5", "--batch", "20", "--in-flight", "3");
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(client.out()).contains("the server at 127.0.0.1:" + port);
        Matcher alloc = ALLOCATED.matcher(client.out());
        assertThat(alloc.find()).as(client.out()).isTrue();
        assertThat(alloc.group(3)).as("no responder in this JVM").isNull();
        Matcher rate = RATE.matcher(client.out());
        assertThat(rate.find()).as(client.out()).isTrue();
        assertThat(rate.group(4)).isEqualTo("1");

        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(s.exit()).as(s.toString()).isZero();
        assertThat(s.out()).contains("listening on 127.0.0.1:" + port).contains("accepted 25, open 0, ended 25");
    }

    @Test
    void usageErrors() {
        assertThat(ToolRun.run("perf", "connect", "--loopback", "127.0.0.1").exit()).isEqualTo(2);
        assertThat(ToolRun.run("perf", "connect", "--loopback", "--in-flight", "0").exit()).isEqualTo(2);
        assertThat(ToolRun.run("perf", "connect", "--addresses", "3", "127.0.0.1").exit()).isEqualTo(2);
        ToolRun pcap = ToolRun.run("perf", "connect", "--loopback", "--pcap", dir.resolve("x.pcap").toString());
        assertThat(pcap.exit()).isEqualTo(2);
        assertThat(pcap.err()).contains("--pcap");
        assertThat(ToolRun.usageError("perf", "connect", "--loopback", "-n", "0"))
                .contains("-n must be 1..100000000: 0");
        assertThat(ToolRun.usageError("perf", "connect", "--loopback", "--batch", "0"))
                .contains("--warmup must be 0 or more and --batch 1 or more");
    }

    @Test
    void aRefusedConnectionFailsTheRunUnderTheCommandsName() {
        ToolRun r = ToolRun.run("perf", "connect", "127.0.0.1", "-p", Integer.toString(ToolRun.freePort()), "-n",
                "1", "--warmup", "0");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).startsWith("iwarp perf connect: ");
    }
}
