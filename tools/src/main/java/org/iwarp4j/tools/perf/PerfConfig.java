package org.iwarp4j.tools.perf;

import java.nio.file.Path;
import java.util.List;
import org.iwarp4j.tools.cli.StackSettings;
import org.iwarp4j.tools.cli.WireOptions;

/**
 * A validated perf configuration.
 *
 * @param verb             what is measured
 * @param latency          ping-pong / one-at-a-time latency instead of bandwidth
 * @param verify           check every octet moved (Write and Read bandwidth)
 * @param compareSwap      atomic test: CmpSwap instead of FetchAdd
 * @param sizes            message sizes, in order
 * @param iterations       operations per size (when {@code durationSeconds} is 0)
 * @param durationSeconds  run each size this long instead of counting iterations ({@code -D}); the measured span
 *                         is this minus twice {@code marginSeconds}, as in perftest
 * @param marginSeconds    the first this many seconds of each size run unmeasured ({@code -f}, as perftest's margin
 *                         in duration mode; before the counted operations with {@code -n}), so that the JIT has
 *                         compiled the data path before the measurement
 * @param txDepth          operations kept in flight (perftest's {@code -t})
 * @param rxDepth          receives the server keeps posted in the Send test (perftest's {@code -r})
 * @param gbits            report Gb/sec instead of MB/sec
 * @param outJson          also write perftest's JSON of each result here ({@code --out_json}), or {@code null}
 * @param progress         show the progress line even when stderr is not a terminal
 * @param wire             MPA settings and capture
 * @param loopback         both ends run in this process (so its CPU time covers both)
 * @param qps              queue pairs (tcp: connections) of a bandwidth test, each with {@code txDepth} in flight
 * @param runToCompletion  the client's bandwidth loop runs on its completion queue's event loop, in a completion
 *                         handler, instead of an application thread that sleeps on the queue; the hello asks the
 *                         server to do the same ({@link PerfHello#FLAG_RUN_TO_COMPLETION})
 * @param stack            the Netty transport, busy polling and outbound buffer of this process's stacks and of
 *                         perf tcp
 * @param details          print iwarp perf's own lines after perftest's report ({@code --details})
 * @param detailsJson      write iwarp perf's own JSON here ({@code --details-json}), or {@code null}
 * @param style            whose perftest text to print ({@code --perftest-version})
 */
record PerfConfig(PerfVerb verb, boolean latency, boolean verify, boolean compareSwap, List<Integer> sizes,
                  long iterations, int durationSeconds, int marginSeconds, int txDepth, int rxDepth, boolean gbits,
                  Path outJson, boolean progress, WireOptions wire, boolean loopback, int qps,
                  boolean runToCompletion, StackSettings stack, boolean details, Path detailsJson,
                  PerftestFormat.Style style) {

    /** The server's verification buffer: at most 16 MiB, at most 16384 messages, a whole number of windows. */
    static final int VERIFY_BUFFER_MAX = 16 << 20;
    static final int VERIFY_MESSAGES_MAX = 16384;

    PerfConfig {
        sizes = List.copyOf(sizes);
    }

    int maxSize() {
        return sizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    boolean durationMode() {
        return durationSeconds > 0;
    }

    /** Messages of {@code size} per verification round: the server buffer holds exactly one round. */
    int messagesPerRound(int size) {
        int n = Math.max(1, Math.min(VERIFY_BUFFER_MAX / size, VERIFY_MESSAGES_MAX));
        return Math.max(txDepth, n - n % txDepth);
    }

    int verifyBufferSize() {
        return verify ? sizes.stream().mapToInt(s -> messagesPerRound(s) * s).max().orElseThrow() : 0;
    }

    /** The seconds of each size that are measured: perftest's {@code -D} minus its margin at either end; 0 with -n. */
    int measuredSeconds() {
        return durationMode() ? durationSeconds - 2 * marginSeconds : 0;
    }

    /**
     * Whether each size begins with {@link #marginSeconds} of unmeasured operations instead of a count of them: in
     * duration mode perftest's margin, with {@code -n} our own warm-up by time before the counted operations.
     */
    boolean warmsByTime() {
        return marginSeconds > 0;
    }

    /**
     * Operations run before the measured ones (the JIT compiles the data path meanwhile), never reported; an iWARP
     * client that {@link #warmsByTime() warms by time} runs its margin instead.
     */
    long warmup() {
        if (verify) {
            return 0;
        }
        return durationMode() ? Math.min(1000, 100L * txDepth) : Math.min(1000, iterations / 5);
    }

    /** Whose CPU the client's own readings are: the whole run's in loopback, else the client's. */
    String cpuEnd() {
        return loopback ? CpuUse.BOTH : CpuUse.CLIENT;
    }

    /** Warm-up operations for each of the {@link #qps} queue pairs: {@link #warmup()} shared among them. */
    long warmupPerQp() {
        long w = warmup();
        return w == 0 ? 0 : Math.max(1, w / qps);
    }

    /** The same run over plain TCP ({@code --compare-tcp}): sizes, -q, -t, -n or -D; no JSON files of its own. */
    PerfConfig tcpBaseline() {
        return new PerfConfig(PerfVerb.TCP, latency, false, false, sizes, iterations, durationSeconds, marginSeconds,
                txDepth, rxDepth, gbits, null, progress, wire, loopback, qps, false, stack, details, null,
                style);
    }

    String title() {
        String name =
                verb == PerfVerb.ATOMIC ? "Atomic " + (compareSwap ? "CMP_AND_SWAP" : "FETCH_AND_ADD") : verb.title();
        return name + (latency ? " Latency Test" : " BW Test");
    }
}
