package org.iwarp4j.tools.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.iwarp4j.tools.cli.ToolRun;
import org.iwarp4j.tools.report.TinyJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code iwarp conformance --app perftest} against iwarp4j's own perftest servers ({@code iwarp perf write|read|send},
 * which speak perftest 4.5+0.17's exchange by default): every check that runs passes, the checks that need the
 * program's buffer run on its test connection, and those it cannot meet are skipped with the reason. perftest's
 * server serves one client and ends, so it runs in a loop here, as {@code while true; do ib_write_bw -R; done} in
 * the lab.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ConformancePerftestSelfTest {

    /** {@code iwarp perf VERB -p PORT ...} again and again until closed. */
    private static final class ServerLoop implements AutoCloseable {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger runs = new AtomicInteger();
        final Thread thread;

        ServerLoop(String... args) {
            thread = new Thread(() -> {
                while (!stop.get()) {
                    ToolRun.run(args);
                    runs.incrementAndGet();
                }
            }, "iwarp-perftest-server-loop");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.interrupt();
            thread.join(10_000);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> conformance(String verb, String... only) throws Exception {
        int port = ToolRun.freePort();
        try (ServerLoop server = new ServerLoop("perf", verb, "-p", Integer.toString(port), "-s", "64", "-n",
                "1000")) {
            ToolRun.awaitListening(port, new CompletableFuture<>());
            List<String> args = new ArrayList<>(List.of("conformance", "--target", "127.0.0.1:" + port, "--app",
                    "perftest", "--perftest", verb, "--perftest-size", "64", "--skip-slow", "--json"));
            if (only.length > 0) {
                args.add("--only");
                args.add(String.join(",", only));
            }
            ToolRun r = ToolRun.run(args.toArray(new String[0]));
            assertThat(r.exit()).as(r.out() + r.err()).isZero();
            Map<String, Object> doc = (Map<String, Object>) TinyJson.parse(r.out());
            assertThat(server.runs.get()).as("the server served the checks, one run each").isPositive();
            System.out.println("iwarp perf " + verb + " server, --only " + String.join(",", only) + ": "
                    + doc.get("totals") + ", " + server.runs.get() + " server runs");
            return doc;
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> checks(Map<String, Object> doc) {
        return (List<Map<String, Object>>) doc.get("checks");
    }

    private static List<String> ids(Map<String, Object> doc, String status) {
        return checks(doc).stream().filter(c -> status.equals(c.get("status"))).map(c -> (String) c.get("id"))
                .toList();
    }

    @SuppressWarnings("unchecked")
    private static long total(Map<String, Object> doc, String what) {
        return (Long) ((Map<String, Object>) doc.get("totals")).get(what);
    }

    @Test
    void perfWriteServerPassesEveryCheckThatRuns() throws Exception {
        Map<String, Object> doc = conformance("write");
        assertThat(doc).containsEntry("app", "perftest");
        assertThat(total(doc, "failed")).as(ids(doc, "failed").toString()).isZero();
        assertThat(total(doc, "passed")).isGreaterThanOrEqualTo(80);
        // the Write checks aim at the server's buffer, learnt from its pingpong_dest
        Map<String, Object> past = check(doc, "answers a Write that runs 8 octets past the buffer");
        assertThat(past).containsEntry("status", "passed");
        assertThat(check(doc, "answers a Write that starts 8 octets before the buffer"))
                .containsEntry("status", "passed");
        assertThat(reasons(doc)).anyMatch(s -> s.contains("ib_write_bw posts no receive"))
                .anyMatch(s -> s.contains("ib_write_bw's buffer has no remote read access"));
    }

    @Test
    void perfReadAndSendServersMeetTheirNeeds() throws Exception {
        Map<String, Object> read = conformance("read", "3", "4", "6");
        assertThat(total(read, "failed")).as(ids(read, "failed").toString()).isZero();
        assertThat(check(read, "answers a Read Request running 8 octets past the buffer"))
                .containsEntry("status", "passed");
        Map<String, Object> send = conformance("send", "5", "6");
        assertThat(total(send, "failed")).as(ids(send, "failed").toString()).isZero();
        assertThat(check(send, "answers a Send longer than its receive buffer")).containsEntry("status", "passed");
        assertThat(reasons(send)).anyMatch(s -> s.contains("credit word"));
    }

    private static Map<String, Object> check(Map<String, Object> doc, String titleStart) {
        return checks(doc).stream().filter(c -> ((String) c.get("title")).startsWith(titleStart)).findFirst()
                .orElseThrow(() -> new AssertionError("no check " + titleStart + " in " + doc));
    }

    private static List<String> reasons(Map<String, Object> doc) {
        return checks(doc).stream().filter(c -> "skipped".equals(c.get("status")))
                .map(c -> String.valueOf(c.get("actual")) + " " + c.get("reason")).toList();
    }
}
