package org.iwarp4j.tools.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.JsonWriter;

/**
 * perftest's text and {@code --out_json} formats, written anew from what its sources print (linux-rdma/perftest,
 * src/perftest_parameters.h: RESULT_LINE, RESULT_FMT, RESULT_FMT_G, RESULT_FMT_LAT, RESULT_FMT_LAT_DUR,
 * REPORT_FMT, REPORT_FMT_EXT, REPORT_FMT_LAT, REPORT_FMT_LAT_DUR and their _JSON forms; perftest_parameters.c:
 * ctx_print_test_info, write_test_info_to_file, print_full_bw_report, print_report_lat,
 * print_report_lat_duration; perftest_communication.h/.c: BASIC_ADDR_FMT, READ_FMT, RDMA_FMT,
 * ctx_print_pingpong_data), so that a script that reads perftest's output reads ours.
 *
 * <p>The text comes in two {@link Style}s: Debian 12's perftest 4.5 (the lab's) and current upstream; they differ
 * in the bandwidth unit's label (MB/sec, upstream MiB/sec: the same 2^20 octets per second), two spaces before
 * MsgRate and two lines of the parameter block. The JSON is upstream's (4.5's is not JSON: its keys are
 * unquoted and its objects end with a comma). Numbers are formatted with {@link Locale#ROOT}, as C's printf does.
 */
final class PerftestFormat {

    /** Which perftest's text to reproduce. */
    enum Style {
        /** perftest 4.5+0.17 (Debian 12, tag v4.5-0.17). */
        V4_5,
        /** perftest's master (configure.ac 6.29, tags 24.x and later). */
        UPSTREAM
    }

    static final String RESULT_LINE =
            "---------------------------------------------------------------------------------------";
    static final String LAT_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
            + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    static final String LAT_DUR_HEADER = " #bytes        #iterations       t_avg[usec]    tps average";
    /** What perftest prints as the device's name: our stack's. */
    static final String DEVICE = "iwarp4j";

    private PerftestFormat() {}

    /**
     * The facts of perftest's parameter block ({@code ctx_print_test_info}) that this stack has.
     *
     * @param verb        the test
     * @param latency     an {@code _lat} test
     * @param compareSwap the atomic test runs CMP_AND_SWAP
     * @param client      the client's block (TX depth) or the server's (RX depth of the Send test)
     * @param qps         queue pairs
     * @param txDepth     operations in flight ({@code -t})
     * @param rxDepth     receives the server keeps posted (Send test)
     * @param mtu         the MPA MULPDU: the most octets of one DDP segment, where an RNIC reports its port's MTU
     * @param outReads    the ORD of the Read and Atomic tests
     * @param transport   perftest's transport name ("IW" for this stack)
     * @param duplex      a bidirectional bandwidth test ({@code -b}): both ends send, so both print their TX depth
     *                    (and the Send test's RX depth)
     */
    record TestInfo(PerfVerb verb, boolean latency, boolean compareSwap, boolean client, int qps, int txDepth,
                    int rxDepth, int mtu, int outReads, String transport, boolean duplex) {

        /** A unidirectional test's. */
        TestInfo(PerfVerb verb, boolean latency, boolean compareSwap, boolean client, int qps, int txDepth,
                 int rxDepth, int mtu, int outReads, String transport) {
            this(verb, latency, compareSwap, client, qps, txDepth, rxDepth, mtu, outReads, transport, false);
        }

        /**
         * perftest's test name words: {@code RDMA_Write BW}, {@code Send Bidirectional BW},
         * {@code Atomic FETCH_AND_ADD Latency}.
         */
        List<String> nameWords() {
            List<String> words = new ArrayList<>(List.of(verb.title()));
            if (verb == PerfVerb.ATOMIC) {
                words.add(compareSwap ? "CMP_AND_SWAP" : "FETCH_AND_ADD");
            }
            if (duplex && !latency) {
                words.add("Bidirectional");
            }
            words.add(latency ? "Latency" : "BW");
            words.add("Test");
            return words;
        }

        boolean readOrAtomic() {
            return verb == PerfVerb.READ || verb == PerfVerb.ATOMIC;
        }
    }

    /** The lines of {@code ctx_print_test_info} from the title to "Data ex. method", without the dashed lines. */
    static List<String> testInfo(TestInfo t, Style style) {
        List<String> l = new ArrayList<>();
        l.add(" ".repeat(20) + String.join(" ", t.nameWords()));
        l.add(" Dual-port       : OFF\t\tDevice         : " + DEVICE);
        l.add(" Number of qps   : " + t.qps() + "\t\tTransport type : " + t.transport());
        l.add(" Connection type : RC\t\tUsing SRQ      : OFF");
        // built without relaxed ordering (there is no PCIe) and, upstream, without the thread-domain API
        l.add(style == Style.V4_5 ? " PCIe relax order: Unsupported"
                : " PCIe relax order: Unsupported\t\tLock-free\t: Unsupported");
        l.add(style == Style.V4_5 ? " ibv_wr* API     : OFF"
                : " ibv_wr* API     : OFF\t\tUsing Enhanced Reorder      : OFF");
        if (t.client() || t.duplex()) {
            l.add(" TX depth        : " + t.txDepth());
        }
        if (t.verb() == PerfVerb.SEND && (!t.client() || t.duplex())) {
            l.add(" RX depth        : " + t.rxDepth());
        }
        if (!t.latency()) {
            l.add(" CQ Moderation   : 1");
            if (style == Style.UPSTREAM) {
                l.add(" CQE Poll Batch  : " + PerfEndpoint.POLL_BATCH);
            }
        }
        l.add(" Mtu             : " + t.mtu() + "[B]");
        l.add(" Link type       : Ethernet");
        l.add(t.readOrAtomic() ? " Outstand reads  : " + t.outReads() : " Max inline data : 0[B]");
        l.add(" rdma_cm QPs\t : ON");
        l.add(" Data ex. method : rdma_cm");
        return l;
    }

    /**
     * One line of {@code ctx_print_pingpong_data}: {@code side} is "local" or "remote". iWARP has neither LID nor
     * PSN (printed as 0); the Read test adds its outstanding reads, Write and Read the buffer's STag and address.
     */
    static String address(String side, PerfVerb verb, int qpn, int outReads, int rkey, long vaddr) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, " %s address: LID %s QPN %s PSN %s", side,
                cHex(0, 4), cHex(qpn, 6), cHex(0, 6)));
        if (verb == PerfVerb.READ) {
            b.append(" OUT ").append(cHex(outReads, 4));
        }
        if (verb == PerfVerb.READ || verb == PerfVerb.WRITE) {
            b.append(" RKey ").append(cHex(Integer.toUnsignedLong(rkey), 8)).append(" VAddr ").append(cHex(vaddr, 16));
        }
        return b.toString();
    }

    /** C's {@code %#0<width>x}: "0x" and zero padding to {@code width} in all; zero is all zeros, without "0x". */
    static String cHex(long value, int width) {
        String digits = Long.toHexString(value);
        String prefix = value == 0 ? "" : "0x";
        int pad = Math.max(0, width - prefix.length() - digits.length());
        return prefix + "0".repeat(pad) + digits;
    }

    /** The bandwidth table's column header (RESULT_FMT, RESULT_FMT_G). */
    static String bwHeader(boolean gbits, Style style) {
        String unit = gbits ? "Gb/sec" : style == Style.V4_5 ? "MB/sec" : "MiB/sec";
        return " #bytes     #iterations    BW peak[" + unit + "]    BW average[" + unit + "]   MsgRate[Mpps]";
    }

    /** The column header of latency tests: by iterations (RESULT_FMT_LAT) or by duration (RESULT_FMT_LAT_DUR). */
    static String latHeader(boolean duration) {
        return duration ? LAT_DUR_HEADER : LAT_HEADER;
    }

    /** perftest's bandwidth figure: MB/sec is 2^20 octets per second, Gb/sec 10^9 bits per second. */
    static double unit(double bytesPerSecond, boolean gbits) {
        return gbits ? bytesPerSecond * 8 / 1e9 : bytesPerSecond / (1 << 20);
    }

    /** print_full_bw_report's extra accuracy: six decimals when Gb/sec averages under 0.1. */
    static boolean moreAccuracy(PerfResult r, boolean gbits) {
        return gbits && unit(r.avgBytesPerSecond(), true) < 0.1;
    }

    /** One bandwidth line (REPORT_FMT, or REPORT_FMT_EXT with {@link #moreAccuracy}). */
    static String bwLine(PerfResult r, boolean gbits, Style style) {
        double peak = unit(r.peakBytesPerSecond(), gbits);
        double avg = unit(r.avgBytesPerSecond(), gbits);
        double mpps = r.messagesPerSecond() / 1e6;
        if (moreAccuracy(r, gbits)) {
            return String.format(Locale.ROOT, " %-7d    %d           %-7.6f            %-7.6f            %-7.6f",
                    r.size(), r.iterations(), peak, avg, mpps);
        }
        String beforeRate = style == Style.V4_5 ? "\t\t   " : "\t\t     ";
        return String.format(Locale.ROOT, " %-7d    %-10d       %-7.2f            %-7.2f" + beforeRate + "%-7.6f",
                r.size(), r.iterations(), peak, avg, mpps);
    }

    /** One latency line: REPORT_FMT_LAT, or by duration REPORT_FMT_LAT_DUR (t_avg and transactions per second). */
    static String latLine(PerfResult r, boolean duration) {
        LatencyMeter.LatencyStats s = r.latency();
        if (duration) {
            return String.format(Locale.ROOT, " %-7d       %d            %-7.2f        %-7.2f", r.size(),
                    r.iterations(), s.avg(), r.messagesPerSecond());
        }
        return String.format(Locale.ROOT, " %-7d %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t"
                        + "%-7.2f\t\t%-7.2f \t\t%-7.2f", r.size(), r.iterations(), s.min(), s.max(), s.typical(),
                s.avg(), s.stdev(), s.p99(), s.p999());
    }

    /**
     * The {@code --out_json} file of one result, as upstream writes it: an object of "test_info"
     * (write_test_info_to_file) and "results" (write_bw_report_to_file, write_report_lat_to_file,
     * write_report_lat_duration_to_file), one member a line, numbers in its printf formats.
     */
    static String json(TestInfo t, PerfResult r, boolean gbits, boolean duration) {
        StringBuilder b = new StringBuilder("{\n\"test_info\": {\n");
        b.append("\"test\": ").append(JsonWriter.write(Json.str(String.join("_", t.nameWords())))).append(",\n");
        b.append("\"Dual_port\": \"OFF\",\n\"Device\": ").append(JsonWriter.write(Json.str(DEVICE))).append(",\n");
        b.append("\"Number_of_qps\": ").append(t.qps()).append(",\n\"Transport_type\": ")
                .append(JsonWriter.write(Json.str(t.transport()))).append(",\n");
        if (t.verb() == PerfVerb.TCP) { // no perftest test: its test_info has only what applies to TCP
            b.append("\"TX_depth\": ").append(t.txDepth()).append("\n},\n\"results\": {\n");
            return results(b, t, r, gbits, duration);
        }
        b.append("\"Connection_type\": \"RC\",\n\"Using_SRQ\": \"OFF\",\n");
        b.append(" \"PCIe_relax_order\": \"Unsupported\",\n");
        b.append("\"ibv_wr_API\": \"OFF\",\n");
        if (t.client() || t.duplex()) {
            b.append("\"TX_depth\": ").append(t.txDepth()).append(",\n");
        }
        if (t.verb() == PerfVerb.SEND && (!t.client() || t.duplex())) {
            b.append("\"RX_depth\": ").append(t.rxDepth()).append(",\n");
        }
        if (!t.latency()) {
            b.append("\"CQ_Moderation\": 1,\n");
        }
        b.append("\"Mtu\": ").append(t.mtu()).append(",\n\"Link_type\": \"Ethernet\",\n");
        b.append(t.readOrAtomic() ? "\"Outstand_reads\": " + t.outReads() : "\"Max_inline_data\": 0").append(",\n");
        b.append("\"rdma_cm_QPs\": \"ON\",\n\"Use_ROCm_memory\": \"OFF\",\n\"Use_MUSA_memory\": \"OFF\",\n");
        b.append("\"Data_ex_method\": \"rdma_cm\"\n},\n\"results\": {\n");
        return results(b, t, r, gbits, duration);
    }

    private static String results(StringBuilder b, TestInfo t, PerfResult r, boolean gbits, boolean duration) {
        if (!t.latency()) {
            String f = moreAccuracy(r, gbits) ? "%.6f" : "%.2f";
            b.append(String.format(Locale.ROOT, "\"MsgSize\": %d,\n\"n_iterations\": %d,\n\"BW_peak\": " + f
                            + ",\n\"BW_average\": " + f + ",\n\"MsgRate\": %.6f", r.size(), r.iterations(),
                    unit(r.peakBytesPerSecond(), gbits), unit(r.avgBytesPerSecond(), gbits),
                    r.messagesPerSecond() / 1e6));
        } else if (duration) {
            b.append(String.format(Locale.ROOT, "\"MsgSize\": %d,\n\"n_iterations\": %d,\n\"t_avg\": %.2f,\n"
                    + "\"tps_average\": %.2f", r.size(), r.iterations(), r.latency().avg(), r.messagesPerSecond()));
        } else {
            LatencyMeter.LatencyStats s = r.latency();
            b.append(String.format(Locale.ROOT, "\"MsgSize\": %d,\n\"n_iterations\": %d,\n\"t_min\": %.2f,\n"
                            + "\"t_max\": %.2f,\n\"t_typical\": %.2f,\n\"t_avg\": %.2f,\n\"t_stdev\": %.2f,\n"
                            + "\"percentile_99\": %.2f,\n\"percentile_99.9\": %.2f", r.size(), r.iterations(), s.min(),
                    s.max(), s.typical(), s.avg(), s.stdev(), s.p99(), s.p999()));
        }
        return b.append("\n}\n}\n").toString();
    }
}
