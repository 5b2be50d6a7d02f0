package org.iwarp4j.tools.perf.conn;

import java.io.PrintWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.iwarp4j.tools.report.Json;

/**
 * The report of a connection test in the layout of {@code iwarp perf}'s (a dashed block with the title and the
 * parameters, then the results), one {@code label : values} line each, and as JSON ({@code --out_json}).
 */
final class ConnReport {

    static final String RULE = "-".repeat(87);
    /** The percentiles a latency line shows. */
    static final double[] PERCENTILES = {50, 90, 99, 99.9};

    private final PrintWriter out;

    ConnReport(PrintWriter out) {
        this.out = out;
    }

    void header(String title, List<String> parameters) {
        out.println(RULE);
        out.println(" ".repeat(Math.max(0, (RULE.length() - title.length()) / 2)) + title);
        parameters.forEach(p -> out.println(" " + p));
        out.println(RULE);
        out.flush();
    }

    /** One result line: {@code label} padded to the colon column, then {@code text}. */
    void line(String label, String text) {
        out.println(String.format(Locale.ROOT, " %-17s: %s", label, text));
        out.flush();
    }

    void rule() {
        out.println(RULE);
        out.flush();
    }

    /** A latency histogram (nanoseconds) in microseconds: min, the percentiles, max. */
    static String latency(Histogram h) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "min %.1f", h.getMinValue() / 1e3));
        for (double p : PERCENTILES) {
            sb.append(String.format(Locale.ROOT, "  p%s %.1f", percentileName(p), h.getValueAtPercentile(p) / 1e3));
        }
        sb.append(String.format(Locale.ROOT, "  max %.1f", h.getMaxValue() / 1e3));
        return sb.toString();
    }

    static Json latencyJson(Histogram h) {
        List<Object> kv = new ArrayList<>(List.of("count", Json.num(h.getTotalCount()), "min_usec",
                Json.realOrNull(h.getMinValue() / 1e3)));
        for (double p : PERCENTILES) {
            kv.add("p" + percentileName(p).replace('.', '_') + "_usec");
            kv.add(Json.realOrNull(h.getValueAtPercentile(p) / 1e3));
        }
        kv.addAll(List.of("max_usec", Json.realOrNull(h.getMaxValue() / 1e3), "mean_usec",
                Json.realOrNull(h.getMean() / 1e3)));
        return Json.obj(kv.toArray());
    }

    private static String percentileName(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }

    /** Collections and their time so far, over every collector. */
    record GcCount(long collections, long millis) {
        static GcCount now() {
            long n = 0;
            long ms = 0;
            for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
                n += Math.max(0, b.getCollectionCount());
                ms += Math.max(0, b.getCollectionTime());
            }
            return new GcCount(n, ms);
        }

        GcCount since(GcCount before) {
            return new GcCount(collections - before.collections, millis - before.millis);
        }
    }

    /** Bytes with a binary unit, e.g. {@code 61.2 MiB}. */
    static String bytes(double b) {
        if (Double.isNaN(b)) {
            return "n/a";
        }
        double a = Math.abs(b);
        if (a >= 1 << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", b / (1 << 30));
        }
        if (a >= 1 << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", b / (1 << 20));
        }
        if (a >= 1 << 10) {
            return String.format(Locale.ROOT, "%.1f KiB", b / (1 << 10));
        }
        return String.format(Locale.ROOT, "%.0f B", b);
    }
}
