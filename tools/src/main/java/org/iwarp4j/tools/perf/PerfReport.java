package org.iwarp4j.tools.perf;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.JsonWriter;

/**
 * perftest's report ({@link PerftestFormat}): its parameter block, the address lines, the result table in its
 * column layout and number formats, closed by its dashed line, and with {@code --out_json} its JSON file,
 * rewritten after each size as perftest does. iwarp perf's own lines (MPA settings, endpoints, CPU per GB, the
 * spread of several queue pairs) follow perftest's block only with {@code --details}, so that a script that
 * parses perftest's output sees nothing else; {@code --details-json} holds them as JSON.
 */
final class PerfReport {

    static final String RESULT_LINE = PerftestFormat.RESULT_LINE;
    static final String BW_HEADER = PerftestFormat.bwHeader(false, PerftestFormat.Style.V4_5);
    static final String BW_HEADER_G = PerftestFormat.bwHeader(true, PerftestFormat.Style.V4_5);
    static final String CPU_HEADER = " #bytes     end       GB moved     CPU[s]     user[s]    CPU[s/GB]   user[s/GB]";
    static final String QP_HEADER = " #bytes     #qps     BW min[MB/sec]    BW max[MB/sec]    MsgRate min[Mpps]   "
            + "MsgRate max[Mpps]";
    static final String QP_HEADER_G = QP_HEADER.replace("MB/sec", "Gb/sec");
    static final String LAT_HEADER = PerftestFormat.LAT_HEADER;

    private final PrintWriter out;
    private final PerfConfig config;
    private final List<PerfResult> results = new ArrayList<>();
    private PerftestFormat.TestInfo info;
    private List<String> details = List.of();
    /** iwarp perf's JSON of the results, once {@link #end ended}; null before. */
    private Json.Obj json;
    /** {@link CrossCpuProbe}'s round trip before and after the run (ns), NaN when not measured. */
    private double crossCpuBefore = Double.NaN;
    private double crossCpuAfter = Double.NaN;
    /** Where the note on a JIT still compiling during a measurement goes: not into perftest's output. */
    private PrintWriter notes = new PrintWriter(System.err, true);
    /** Measurements the JIT worked through, of which only the first is noted at once (a sweep has many sizes). */
    private int jitNoted;

    /**
     * A measurement during which the JIT's compilations took more than this share of its length (their wall time,
     * which a busy machine stretches: 4.2 s in a 4 s measurement under a load of 7, 0.3-0.5 s on a quiet machine
     * with a margin of 2 to 10 s) ran partly on code not compiled yet, and its figures tell more about the JIT than
     * about the stack (docs/performance.md, "Under load: the JIT starved").
     */
    static final double JIT_NOTE_SHARE = 0.25;

    PerfReport(PrintWriter out, PerfConfig config) {
        this.out = out;
        this.config = config;
    }

    /** Where notes go (stderr unless a test says otherwise). */
    PerfReport notesTo(PrintWriter w) {
        this.notes = w;
        return this;
    }

    /**
     * With {@code --details} or {@code --details-json}: measures the machine's cross-CPU round trip now, before a
     * client's run, and again at its {@link #end}, to be reported beside the results ({@link CrossCpuProbe}).
     */
    void probeMachine() {
        if (config.details() || config.detailsJson() != null) {
            crossCpuBefore = CrossCpuProbe.roundTripNanos();
        }
    }

    /**
     * perftest's header: the parameter block of {@code test}, the address lines (none: no block of them) and the
     * table's column header; {@code ownLines} are printed after the table with {@code --details}.
     */
    void header(PerftestFormat.TestInfo test, List<String> addresses, List<String> ownLines) {
        header(test, PerftestFormat.testInfo(test, config.style()), addresses, ownLines);
    }

    /** A header whose block is {@code block} (perf tcp: there is no perftest test of it). */
    void header(PerftestFormat.TestInfo test, List<String> block, List<String> addresses, List<String> ownLines) {
        info = test;
        details = List.copyOf(ownLines);
        out.println(RESULT_LINE);
        block.forEach(out::println);
        out.println(RESULT_LINE);
        if (!addresses.isEmpty()) {
            addresses.forEach(out::println);
            out.println(RESULT_LINE);
        }
        out.println(columns(config));
        out.flush();
    }

    /** The table's column header of {@code config}'s test. */
    static String columns(PerfConfig config) {
        return config.latency() ? PerftestFormat.latHeader(config.durationMode())
                : PerftestFormat.bwHeader(config.gbits(), config.style());
    }

    void line(PerfResult r) throws IOException {
        results.add(r);
        out.println(format(r, config));
        out.flush();
        String jit = jitNote(r);
        if (jit != null && jitNoted++ == 0) {
            notes.println(jit);
            notes.flush();
        }
        if (config.outJson() != null && info != null) {
            Files.writeString(config.outJson(), PerftestFormat.json(info, r, config.gbits(), config.durationMode()),
                    StandardCharsets.UTF_8);
        }
    }

    /** The table's end; then with {@code --details} our own lines, the queue pairs' spread and the CPU table. */
    void footer() {
        out.println(RESULT_LINE);
        if (config.details()) {
            if (!details.isEmpty()) {
                details.forEach(d -> out.println(" " + d));
                out.println(RESULT_LINE);
            }
            qpTable(out, results, config.gbits());
            if (!config.latency()) {
                cpuTable(out, results); // a latency test moves too little for CPU per GB to say anything
            }
            List<String> jit = jitLines(results);
            if (!jit.isEmpty()) {
                jit.forEach(out::println);
                out.println(RESULT_LINE);
            }
            if (!Double.isNaN(crossCpuBefore)) {
                out.println(String.format(" Cross-CPU round trip: %s before, %s after (a cache line handed between two"
                        + " threads; on a virtual machine it moves with the host's placement of the CPUs)",
                        nanos(crossCpuBefore), nanos(crossCpuAfter)));
                out.println(RESULT_LINE);
            }
        }
        out.flush();
    }

    /**
     * The end of a client's run: the {@link #footer()}, then iwarp perf's JSON of it ({@link #json()}), written to
     * {@code --details-json} when that is given.
     */
    void end(List<String> parameters) throws IOException {
        if (!Double.isNaN(crossCpuBefore)) {
            crossCpuAfter = CrossCpuProbe.roundTripNanos();
        }
        if (jitNoted > 1) {
            notes.println("note: the same at " + (jitNoted - 1) + " more size" + (jitNoted > 2 ? "s" : "")
                    + " (--details shows the JIT's time at each)");
            notes.flush();
        }
        footer();
        json = json(parameters);
        if (config.detailsJson() != null) {
            JsonWriter.writeFile(config.detailsJson(), json);
        }
    }

    /** perftest's banner of a server that listens for its client. */
    static void waitingForClient(PrintWriter out) {
        out.println("************************************");
        out.println("* Waiting for client to connect... *");
        out.println("************************************");
        out.flush();
    }

    private static String nanos(double ns) {
        return Double.isNaN(ns) ? "not measured" : String.format("%.0f ns", ns);
    }

    /** With several queue pairs: the slowest and the fastest one of each result, closed by a dashed line. */
    static void qpTable(PrintWriter out, List<PerfResult> results, boolean gbits) {
        List<PerfResult> spread = results.stream().filter(r -> r.spread() != null).toList();
        if (spread.isEmpty()) {
            return;
        }
        out.println(" Per queue pair: the slowest and the fastest, each over the whole run (above: their sum)");
        out.println(gbits ? QP_HEADER_G : QP_HEADER);
        for (PerfResult r : spread) {
            PerfResult.QpSpread q = r.spread();
            out.println(String.format(" %-7d    %-6d   %-14.2f    %-14.2f    %-17.6f   %.6f", r.size(), q.qps(),
                    unit(q.minMessagesPerSecond() * r.size(), gbits), unit(q.maxMessagesPerSecond() * r.size(), gbits),
                    q.minMessagesPerSecond() / 1e6, q.maxMessagesPerSecond() / 1e6));
        }
        out.println(RESULT_LINE);
    }

    /**
     * The note for a result whose measurement the JIT compilers worked through for more than {@link #JIT_NOTE_SHARE}
     * of its length, or null.
     */
    static String jitNote(PerfResult r) {
        double seconds = r.messagesPerSecond() > 0 ? r.iterations() / r.messagesPerSecond() : 0;
        for (CpuUse c : r.cpu()) {
            if (c.hasJit() && seconds > 0 && c.jitSeconds() > JIT_NOTE_SHARE * seconds) {
                return String.format("note: the JIT's compilations took %.2f s of the %.2f s measured at %d octets:"
                        + " part of it ran code not compiled yet (a busy machine starves the compiler); give a longer"
                        + " margin (-f)",
                        c.jitSeconds(), seconds, r.size());
            }
        }
        return null;
    }

    /** The JIT's time during each measurement of this process, one line each; nothing if none was read. */
    static List<String> jitLines(List<PerfResult> results) {
        List<String> lines = new ArrayList<>();
        for (PerfResult r : results) {
            for (CpuUse c : r.cpu()) {
                if (c.hasJit()) {
                    lines.add(String.format(" JIT compilation during the measurement at %d octets: %.3f s (%s)",
                            r.size(), c.jitSeconds(),
                            c.end().equals(CpuUse.BOTH) ? "this process, both ends" : "this process"));
                }
            }
        }
        return lines;
    }

    /** The CPU table of {@code results}, closed by a dashed line; nothing if none measured CPU time. */
    static void cpuTable(PrintWriter out, List<PerfResult> results) {
        List<String> cpu = cpuLines(results);
        if (!cpu.isEmpty()) {
            out.println(cpuNote(results));
            out.println(CPU_HEADER);
            cpu.forEach(out::println);
            out.println(RESULT_LINE);
        }
    }

    /** What the CPU table's ends are. */
    static String cpuNote(List<PerfResult> results) {
        List<String> ends = results.stream().flatMap(r -> r.cpu().stream()).map(CpuUse::end).distinct().toList();
        return " CPU per GB moved: user+sys and user time of all the process's threads, GB = 10^9 octets\n "
                + (ends.contains(CpuUse.BOTH) ? "both = client and server in this process (--loopback)"
                        : ends.contains(CpuUse.CLIENT) ? "client = this process, server = the server's, as it reported"
                        : "server = this process (the client reports its own)");
    }

    /** One line per result and end that measured CPU time: octets moved, seconds, seconds per GB. */
    static List<String> cpuLines(List<PerfResult> results) {
        List<String> lines = new ArrayList<>();
        for (PerfResult r : results) {
            for (CpuUse c : r.cpu()) {
                lines.add(String.format(" %-7d    %-8s  %-10.6f   %-8s   %-8s   %-9s   %s", r.size(), c.end(),
                        c.gigabytes(), c.hasCpu() ? String.format("%.3f", c.cpuSeconds()) : "n/a",
                        c.hasUser() ? String.format("%.3f", c.userSeconds()) : "n/a", figure(c.cpuSecondsPerGB()),
                        figure(c.userSecondsPerGB())));
            }
        }
        return lines;
    }

    private static String figure(double v) {
        return Double.isFinite(v) ? String.format("%.3f", v) : "n/a";
    }

    /** The results so far, in the order of their lines. */
    List<PerfResult> results() {
        return List.copyOf(results);
    }

    /** iwarp perf's JSON of the client's run ({@code --details-json}), once {@link #end ended}; else null. */
    Json.Obj json() {
        return json;
    }

    /** One table line in perftest's format (REPORT_FMT, REPORT_FMT_EXT, REPORT_FMT_LAT, REPORT_FMT_LAT_DUR). */
    static String format(PerfResult r, PerfConfig config) {
        return config.latency() ? PerftestFormat.latLine(r, config.durationMode())
                : PerftestFormat.bwLine(r, config.gbits(), config.style());
    }

    static double unit(double bytesPerSecond, boolean gbits) {
        return PerftestFormat.unit(bytesPerSecond, gbits);
    }

    /** {@code doc} with one more member at its end. */
    static Json.Obj with(Json.Obj doc, String key, Json value) {
        List<Json.Member> members = new ArrayList<>(doc.members());
        members.add(new Json.Member(key, value));
        return new Json.Obj(members);
    }

    /** iwarp perf's own JSON of the results ({@code --details-json}): every size, with CPU and spread. */
    private Json.Obj json(List<String> parameters) {
        List<Json> lines = new ArrayList<>();
        for (PerfResult r : results) {
            List<Object> kv =
                    new ArrayList<>(List.of("bytes", Json.num(r.size()), "iterations", Json.num(r.iterations())));
            if (config.latency()) {
                LatencyMeter.LatencyStats s = r.latency();
                kv.addAll(List.of("t_min_usec", Json.real(s.min()), "t_max_usec", Json.real(s.max()), "t_typical_usec",
                        Json.real(s.typical()), "t_avg_usec", Json.real(s.avg()), "t_stdev_usec", Json.real(s.stdev()),
                        "p99_usec", Json.real(s.p99()), "p99_9_usec", Json.real(s.p999())));
            }
            kv.addAll(List.of("bw_peak_MBps", Json.real(unit(r.peakBytesPerSecond(), false)), "bw_avg_MBps",
                    Json.real(unit(r.avgBytesPerSecond(), false)), "bw_avg_Gbps",
                    Json.real(unit(r.avgBytesPerSecond(), true)),
                    "msg_rate_Mpps", Json.real(r.messagesPerSecond() / 1e6)));
            if (r.spread() != null) {
                PerfResult.QpSpread q = r.spread();
                kv.addAll(List.of("qp_bw_min_MBps", Json.real(unit(q.minMessagesPerSecond() * r.size(), false)),
                        "qp_bw_max_MBps", Json.real(unit(q.maxMessagesPerSecond() * r.size(), false)),
                        "qp_msg_rate_min_Mpps", Json.real(q.minMessagesPerSecond() / 1e6),
                        "qp_msg_rate_max_Mpps", Json.real(q.maxMessagesPerSecond() / 1e6)));
            }
            if (!r.cpu().isEmpty()) {
                kv.addAll(List.of("cpu", Json.arr(r.cpu().stream().map(c -> (Json) Json.obj("end", Json.str(c.end()),
                        "gb_moved", Json.real(c.gigabytes()),
                        "cpu_s", c.hasCpu() ? Json.real(c.cpuSeconds()) : Json.Null.NULL,
                        "user_s", c.hasUser() ? Json.real(c.userSeconds()) : Json.Null.NULL,
                        "cpu_s_per_GB", Json.realOrNull(c.cpuSecondsPerGB()),
                        "user_s_per_GB", Json.realOrNull(c.userSecondsPerGB()),
                        "jit_s", c.hasJit() ? Json.real(c.jitSeconds()) : Json.Null.NULL)).toList())));
            }
            lines.add(Json.obj(kv.toArray()));
        }
        return Json.obj("test", Json.str(config.title()), "verb", Json.str(config.verb().name().toLowerCase()),
                "mode", Json.str(config.latency() ? "latency" : "bandwidth"),
                "tx_depth", Json.num(config.txDepth()), "qps", Json.num(config.qps()),
                "crc", Json.bool(config.wire().crc()),
                "markers", Json.bool(config.wire().markers()),
                "duration_s", Json.num(config.durationSeconds()),
                "margin_s", Json.num(config.marginSeconds()),
                "parameters", Json.arr(parameters.stream().map(p -> (Json) Json.str(p.strip())).toList()),
                "cross_cpu_round_trip_ns", Json.obj("before", Json.realOrNull(crossCpuBefore), "after",
                        Json.realOrNull(crossCpuAfter)),
                "results", Json.arr(lines));
    }
}
