package org.iwarp4j.tools.perf.conn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.data.Offset;
import org.iwarp4j.tools.cli.ToolRun;
import org.iwarp4j.tools.report.TinyJson;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code iwarp perf idle}: the report's structure and counts, with the accepting side here, in a child JVM, or a
 * server.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IdleCommandTest {

    static final Pattern HEAP = Pattern.compile("^ heap \\[B\\] +: (-?\\d+\\.\\d) *(-?\\d+\\.\\d)?$",
            Pattern.MULTILINE);
    static final Pattern FDS = Pattern.compile("^ fds +: (-?\\d+\\.\\d\\d) *(-?\\d+\\.\\d\\d)?$", Pattern.MULTILINE);
    static final Pattern CONNECTED = Pattern.compile(
            "^ connected in +: (\\d+\\.\\d\\d) s \\((\\d+\\.\\d) connections/s\\)", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void theHelpIsFormattedWithoutAWarning() {
        // picocli formats the description: a lone '%' in it printed a WARN and the raw text instead
        ToolRun r = ToolRun.run("perf", "idle", "--help");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err()).doesNotContain("picocli WARN");
        assertThat(r.out().replaceAll("\\s+", " ")).contains("MaxHeapFreeRatio, 70 percent, of it free");
    }

    @Test
    void bothEndsInThisJvm() throws Exception {
        Path json = dir.resolve("idle.json");
        ToolRun r = ToolRun.run("perf", "idle", "--loopback", "--same-jvm", "-q", "40", "--warmup", "4",
                "--receives", "2", "--in-flight", "8", "--out_json", json.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(IdleCommand.TITLE)
                .contains("Queue pairs     : 40 held open and idle, connected at most 8 at once, after 4 warm-up")
                .contains("both in this JVM (--loopback --same-jvm)")
                .contains("send/receive depth 256/256, 2 receive(s) posted")
                .contains("this JVM, both ends")
                .doesNotContain("accepting JVM");
        assertThat(CONNECTED.matcher(r.out()).find()).as(r.out()).isTrue();
        Matcher heap = HEAP.matcher(r.out());
        assertThat(heap.find()).as(r.out()).isTrue();
        assertThat(heap.group(2)).isNull();
        Matcher fds = FDS.matcher(r.out());
        assertThat(fds.find()).as(r.out()).isTrue();
        // each connection is a socket at each end, both here
        assertThat(Double.parseDouble(fds.group(1))).isCloseTo(2.0, Offset.offset(0.1));
        assertThat(r.out()).contains("released in");

        Map<String, Object> doc = map(TinyJson.parse(Files.readString(json)));
        assertThat(doc.get("queue_pairs")).isEqualTo(40L);
        assertThat(doc.get("accepting")).isEqualTo("same_jvm");
        assertThat(doc.get("receives_each")).isEqualTo(2L);
        assertThat(map(doc.get("setup")).get("count")).isEqualTo(40L);
        Map<String, Object> perQp = map(doc.get("per_qp"));
        assertThat(perQp.get("accepting")).isNull();
        Map<String, Object> connecting = map(perQp.get("connecting"));
        assertThat(connecting).containsKeys("heap_bytes", "heap_committed_bytes", "rss_bytes", "netty_direct_bytes",
                "jdk_direct_bytes", "fds");
        assertThat(((Number) connecting.get("fds")).doubleValue()).isCloseTo(2.0, Offset.offset(0.1));
        assertThat(map(doc.get("held")).get("fds")).isInstanceOf(Long.class);
    }

    @Test
    void acceptingSideInAChildJvm() throws Exception {
        Path json = dir.resolve("idle.json");
        ToolRun r = ToolRun.run("perf", "idle", "--loopback", "-q", "30", "--warmup", "3", "--in-flight", "8",
                "--out_json", json.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("accepting side in process").contains("connecting JVM        accepting JVM");
        Matcher heap = HEAP.matcher(r.out());
        assertThat(heap.find()).as(r.out()).isTrue();
        assertThat(heap.group(2)).as("the accepting JVM's column").isNotNull();
        Matcher fds = FDS.matcher(r.out());
        assertThat(fds.find()).as(r.out()).isTrue();
        // one socket per connection in each JVM
        assertThat(Double.parseDouble(fds.group(1))).isCloseTo(1.0, Offset.offset(0.1));
        assertThat(Double.parseDouble(fds.group(2))).isCloseTo(1.0, Offset.offset(0.1));

        Map<String, Object> doc = map(TinyJson.parse(Files.readString(json)));
        assertThat(doc.get("accepting")).isEqualTo("other_jvm");
        Map<String, Object> accepting = map(map(doc.get("per_qp")).get("accepting"));
        assertThat(((Number) accepting.get("fds")).doubleValue()).isCloseTo(1.0, Offset.offset(0.1));
        assertThat(map(doc.get("accepting_held")).get("fds")).isInstanceOf(Long.class);
    }

    @Test
    void clientAgainstAnIdleServer() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "idle", "--bind", "127.0.0.1", "-p",
                Integer.toString(port), "--exit-after", "12");
        ToolRun.awaitListening(port, server);
        ToolRun client = ToolRun.run("perf", "idle", "127.0.0.1", "-p", Integer.toString(port), "-q", "10",
                "--warmup", "2");
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(client.out()).contains("the server at 127.0.0.1:" + port).doesNotContain("accepting JVM");
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(s.exit()).as(s.toString()).isZero();
        assertThat(s.out()).contains("accepted 12, open 0, ended 12");
    }

    /**
     * More queue pairs than a listener takes by default, and than an RNIC's default sum of IRDs holds at a queue
     * pair's default IRD: the test's own -q and the open-file limit are its only limits.
     */
    @Test
    void moreQueuePairsThanTheDefaultLimits() {
        int n = 1 + Math.max(ListenOptions.builder().build().maxConnections(),
                RnicConfig.builder().build().maxInboundReadsAndAtomics() / 16); // QueuePairConfig's default IRD
        long soft = Limits.openFilesSoft();
        assumeThat(soft).as("an open-file limit for %d connections with both ends in this JVM", n)
                .isGreaterThan(2L * n + 200);
        ToolRun r = ToolRun.run("perf", "idle", "--loopback", "--same-jvm", "-q", Integer.toString(n), "--warmup",
                "0");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(" Queue pairs     : " + n + " held open and idle")
                .containsPattern(" fds +: 2\\.00");
        assertThat(Acceptor.maxConnections(soft)).isEqualTo((int) Math.min(Integer.MAX_VALUE, soft));
        assertThat(Acceptor.maxConnections(-1)).isEqualTo(Integer.MAX_VALUE);
        assertThat(Acceptor.maxConnections(Long.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void tooFewFileDescriptorsIsAClearError() {
        long soft = Limits.openFilesSoft();
        assumeThat(soft).as("a finite open-file limit").isBetween(1L, 400_000L);
        // both ends here: twice as many descriptors as queue pairs
        ToolRun r = ToolRun.run("perf", "idle", "--loopback", "--same-jvm", "-q", Long.toString(soft / 2 + 1));
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("file descriptors").contains("the limit is " + soft).contains("ulimit -n");
    }

    @Test
    void theChildGetsTheHeapAndCollectorOptionsOnly() {
        assertThat(AcceptorControl.heapOptions(List.of("-Xmx2g", "-Dio.netty.x=1", "-XX:+UseSerialGC",
                "-XX:StartFlightRecording=filename=a.jfr", "-XX:MaxHeapFreeRatio=30",
                "-agentlib:jdwp=transport=dt_socket",
                "-Xss512k", "-XX:NativeMemoryTracking=summary")))
                .containsExactly("-Xmx2g", "-XX:+UseSerialGC", "-XX:MaxHeapFreeRatio=30", "-Xss512k");
    }

    @Test
    void usageErrors() {
        assertThat(ToolRun.run("perf", "idle", "--same-jvm", "127.0.0.1").exit()).isEqualTo(2);
        assertThat(ToolRun.run("perf", "idle", "--loopback", "-q", "0").exit()).isEqualTo(2);
        assertThat(ToolRun.run("perf", "idle", "--loopback", "--receives", "300").exit()).isEqualTo(2);
        assertThat(ToolRun.usageError("perf", "idle", "--loopback", "--threads", "0"))
                .contains("--threads must be 1..64: 0");
        assertThat(ToolRun.usageError("perf", "idle", "--loopback", "--hold", "-1"))
                .contains("--hold must be 0..86400 seconds: -1");
        assertThat(ToolRun.usageError("perf", "idle", "--loopback", "--qp-depth", "40000"))
                .contains("--qp-depth must be 1..32768: 40000");
    }
}
