package org.iwarp4j.tools.soak;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.IwarpCommand;
import org.iwarp4j.verbs.Rnic;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code iwarp soak server|client}: the two JVMs of {@code scripts/soak.sh}, a mixed workload whose every octet
 * is checked, built on the public verbs API only. The script kills both: the server, which a new one replaces,
 * and the client, which a new one replaces for the rest of the run; the client reconnects after every fault and
 * its last incarnation prints the report.
 */
@Command(name = "soak",
        mixinStandardHelpOptions = true,
        versionProvider = IwarpCommand.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {"The soak's workload: every operation on several queue pairs, random sizes, every octet "
                + "checked, reconnecting after every fault. Run by scripts/soak.sh, which adds the faults.", ""},
        footerHeading = "%nExamples:%n",
        footer = {"  iwarp soak server -a 127.0.0.1 -p 7480",
                "  iwarp soak client -a 127.0.0.1 -p 7480 --minutes 2",
                "",
                "The client ends with \"soak: KEY VALUE\" lines: operations, octets_verified, corruptions, hangs, "
                        + "flushed work requests by status, disconnects by reason, memory slopes, verdict.",
                "",
                "Exit status: 0 nothing wrong, 1 a corruption, hang, unexpected error or growing memory, "
                        + "2 usage error."})
public final class SoakCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "ROLE", description = "server or client")
    String role;

    @Option(names = "-a", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "address to listen on or connect to (default ${DEFAULT-VALUE})")
    String address;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7480", description = "port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--minutes", paramLabel = "N", defaultValue = "2",
            description = "client: how long to run (default ${DEFAULT-VALUE})")
    double minutes;

    @Option(names = "--queue-pairs", paramLabel = "N", defaultValue = "4",
            description = "client: queue pairs, each on a thread (default ${DEFAULT-VALUE})")
    int queuePairs;

    @Option(names = "--seed", paramLabel = "S", description = "client: the random seed (default: random, printed)")
    Long seed;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        InetSocketAddress at = new InetSocketAddress(address, port);
        return switch (role) {
            case "server" -> {
                try (Rnic rnic = Rnic.open()) {
                    yield new SoakServer(rnic, out).serve(at);
                }
            }
            case "client" -> client(out, at);
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "ROLE is server or client: "
                    + role);
        };
    }

    private int client(PrintWriter out, InetSocketAddress at) throws InterruptedException {
        long s = seed != null ? seed : new SplittableRandom().nextLong();
        SoakStats stats = new SoakStats(out);
        SoakMemory memory = new SoakMemory();
        long start = System.nanoTime();
        long deadline = start + (long) (minutes * 60e9);
        stats.line("soak client: " + queuePairs + " queue pairs to " + at + " for " + minutes + " min, seed " + s);
        List<Thread> threads = new ArrayList<>();
        try (Rnic rnic = Rnic.open()) {
            SplittableRandom seeds = new SplittableRandom(s);
            for (int i = 0; i < queuePairs; i++) {
                Thread t = new Thread(new SoakClient(i, rnic, at, deadline, stats, seeds.nextLong()));
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
            long lastOps = -1;
            long lastProgress = System.nanoTime();
            long sampleEvery = TimeUnit.SECONDS.toNanos(minutes < 5 ? 5 : 15);
            long nextSample = System.nanoTime();
            while (System.nanoTime() < deadline && !stats.failed()) {
                Thread.sleep(1000);
                long now = System.nanoTime();
                if (now >= nextSample) {
                    memory.sample();
                    nextSample = now + sampleEvery;
                    SoakMemory.Sample m = memory.last();
                    stats.line(String.format("soak client: %.1f min, %s; heap %d MiB, direct %d MiB, pool %d MiB,"
                            + " rss %d MiB", (now - start) / 60e9, stats.progress(), m.heap() >> 20,
                            m.direct() >> 20, m.pool() >> 20, m.rss() >> 20));
                }
                if (stats.operations() != lastOps) {
                    lastOps = stats.operations();
                    lastProgress = now;
                } else if (now - lastProgress > SoakClient.HANG.toNanos() + TimeUnit.SECONDS.toNanos(30)) {
                    stats.hang("no operation completed for " + TimeUnit.NANOSECONDS.toSeconds(now - lastProgress)
                            + " s");
                }
            }
            for (Thread t : threads) {
                t.join(Duration.ofSeconds(120).toMillis());
                if (t.isAlive()) {
                    stats.hang(t.getName() + " did not end within 120 s of the deadline");
                }
            }
        }
        memory.sample();
        stats.report();
        boolean growing = false;
        for (SoakMemory.Slope slope : memory.slopes()) {
            stats.line("soak: memory " + slope);
            growing |= slope.growing();
        }
        boolean ok = stats.corruptions() == 0 && stats.hangs() == 0 && stats.unexpected() == 0 && !growing;
        stats.line("soak: verdict " + (ok ? "PASS" : "FAIL"));
        return ok ? 0 : IwarpCommand.EXIT_FAILURE;
    }
}
