package org.iwarp4j.tools.conformance;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.iwarp4j.tools.IwarpCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code iwarp conformance}: checks a live iWARP peer against RFC 5044/6581, 5041, 5040 and 7306, one numbered
 * check per rule, each on a fresh connection, judged by the oracle module's independent codec.
 */
@Command(name = "conformance",
        versionProvider = IwarpCommand.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
                "Checks a live iWARP peer against the RFCs, rule by rule (like h2spec for HTTP/2): MPA startup, "
                        + "FPDU framing, DDP placement and RDMAP, each check a scripted exchange on a fresh "
                        + "connection, judged octet by octet. It talks only to the address named; every wait is "
                        + "bounded. Most checks end the connection with an error on purpose: point it at test "
                        + "peers, not at production services.",
                ""},
        footerHeading = "%nExamples:%n",
        footer = {
                "  iwarp rping -s -P -a 127.0.0.1 &                       # a persistent peer to check",
                "  iwarp conformance --target 127.0.0.1:7174 --app rping",
                "  iwarp conformance --target 192.0.2.1:7174 --app rping --profile siw --junit-xml siw.xml",
                "  iwarp conformance --role initiator --target 0.0.0.0:7174 --app rping   # then, on the peer:",
                "      while true; do rping -c -a <this host> -C 1; done",
                "  iwarp conformance --target 192.0.2.1:18515 --app perftest --perftest read --perftest-size 64",
                "      # against, on the peer: while true; do ib_read_bw -R -s 64; done",
                "  iwarp conformance --list",
                "",
                "Exit status: 0 when every check that ran passed (known deviations of --profile and skipped checks "
                        + "do not fail a run), 1 when a check failed, 2 usage error."})
public final class ConformanceCommand implements Callable<Integer> {

    @Option(names = "--target", paramLabel = "HOST:PORT",
            description = "responder role: the peer's listening address; initiator role: the address we listen on "
                    + "for the peer's connections")
    String target;

    @Option(names = "--role", paramLabel = "ROLE", defaultValue = "responder",
            description = "the peer's role: responder (it listens, we connect) or initiator (it connects to us); "
                    + "default ${DEFAULT-VALUE}")
    String role;

    @Option(names = "--app", paramLabel = "APP", defaultValue = "generic",
            description = "the peer's application, driven to obtain its buffers: rping, rdma (rdma_server or "
                    + "rdma_client; also spelt rdma-server, rdma-client), perftest (a perftest -R server: name its "
                    + "program with --perftest) or generic (none: checks that need a buffer are skipped); default "
                    + "${DEFAULT-VALUE}")
    String app;

    @Option(names = "--perftest", paramLabel = "TEST", defaultValue = "write",
            description = "--app perftest: the server's program, write (ib_write_bw -R: a writable STag), read "
                    + "(ib_read_bw -R: a readable STag) or send (ib_send_bw -R: posted receives); default "
                    + "${DEFAULT-VALUE}")
    String perftest;

    @Option(names = "--perftest-size", paramLabel = "N", defaultValue = "65536",
            description = "--app perftest: the server's -s (its buffer is 2 x max(N, its page size); ib_send_bw: "
                    + "its receives' size); default ${DEFAULT-VALUE}, perftest's")
    int perftestSize;

    @Option(names = "--perftest-iterations", paramLabel = "N", defaultValue = "1000",
            description = "--app perftest: the server's -n (ib_send_bw posts min(512, N) receives); default "
                    + "${DEFAULT-VALUE}, perftest's")
    long perftestIterations;

    @Option(names = "--profile", paramLabel = "PEER", defaultValue = "strict",
            description = "known deviations to report as such instead of failing: strict (none) or siw; default "
                    + "${DEFAULT-VALUE}")
    String profile;

    @Option(names = "--only", paramLabel = "ID", split = ",",
            description = "run only these checks: 4.3 (one check) or 4 (a group); repeatable, comma-separated")
    List<String> only = new ArrayList<>();

    @Option(names = "--skip-slow", description = "skip the checks that wait for the peer's startup timeout")
    boolean skipSlow;

    @Option(names = "--list", description = "list the checks (ID, roles, needs, rule, cautions) and exit")
    boolean list;

    @Option(names = "--json", description = "write the results as JSON on standard output instead of text")
    boolean json;

    @Option(names = "--junit-xml", paramLabel = "FILE", description = "also write the results as JUnit XML")
    Path junitXml;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "5000",
            description = "bound of each wait of a check, in ms; default ${DEFAULT-VALUE}")
    long timeoutMillis;

    @Option(names = "--startup-timeout", paramLabel = "MS", defaultValue = "30000",
            description = "how long the checks of the peer's startup timeout wait, in ms; default ${DEFAULT-VALUE}")
    long startupTimeoutMillis;

    @Option(names = "--close-wait", paramLabel = "MS", defaultValue = "2000",
            description = "how long the peer has to close after its Terminate, in ms; default ${DEFAULT-VALUE}")
    long closeWaitMillis;

    @Option(names = "--crc", paramLabel = "on|off", defaultValue = "on",
            description = "ask for CRCs (C=1) in our startup frames; default ${DEFAULT-VALUE}")
    String crc;

    @Option(names = "--ird", defaultValue = "4", description = "our IRD in startup frames; default ${DEFAULT-VALUE}")
    int ird;

    @Option(names = "--ord", defaultValue = "4", description = "our ORD in startup frames; default ${DEFAULT-VALUE}")
    int ord;

    @Option(names = "--rping-size", paramLabel = "N", defaultValue = "64",
            description = "--app rping, peer as Responder: the buffer size we advertise (the peer's -S); default "
                    + "${DEFAULT-VALUE}")
    int rpingSize;

    @Option(names = "--first-fpdu-delay", paramLabel = "MS", defaultValue = "50",
            description = "peer as Responder: pause after its Reply before our first FPDU (Linux siw can strand an "
                    + "FPDU that arrives sooner); default ${DEFAULT-VALUE}")
    long firstFpduDelayMillis;

    @Option(names = {"-v", "--verbose"}, description = "also show what the peer did for the checks that passed")
    boolean verbose;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        CommandLine cl = spec.commandLine();
        PrintWriter out = cl.getOut();
        Role r = parse(cl, Role.class, role, "--role");
        // The peer's program names are accepted too: rdma-server and rdma-client speak the same protocol.
        App a = parse(cl, App.class, app.matches("rdma-(server|client)") ? "rdma" : app, "--app");
        Profile p = parse(cl, Profile.class, profile, "--profile");
        PerftestExchange.Program program = parse(cl, PerftestExchange.Program.class, perftest, "--perftest");
        if (perftestSize < 1 || perftestSize > PerftestExchange.MAX_SIZE || perftestIterations < 1) {
            throw new CommandLine.ParameterException(cl, "--perftest-size is 1.." + PerftestExchange.MAX_SIZE
                    + ", --perftest-iterations at least 1");
        }
        if (!crc.equals("on") && !crc.equals("off")) {
            throw new CommandLine.ParameterException(cl, "--crc is on or off, not " + crc);
        }
        if (timeoutMillis < 100 || startupTimeoutMillis < 100 || closeWaitMillis < 0 || ird < 0 || ird > 0x3FFF
                || ord < 0 || ord > 0x3FFF || rpingSize < 16) {
            throw new CommandLine.ParameterException(cl, "timeouts are at least 100 ms, IRD/ORD 0..16383, "
                    + "--rping-size at least 16");
        }
        List<Check> checks = select(Catalog.all(), r, cl);
        if (list) {
            list(out, list ? (target == null && only.isEmpty() ? Catalog.all() : checks) : checks);
            return CommandLine.ExitCode.OK;
        }
        if (target == null) {
            throw new CommandLine.ParameterException(cl, "--target HOST:PORT is required (or --list)");
        }
        InetSocketAddress address = address(cl, target);
        Options o = new Options(a, crc.equals("on"), ird, ord, rpingSize, timeoutMillis, closeWaitMillis,
                startupTimeoutMillis, firstFpduDelayMillis, program, perftestSize, perftestIterations);
        long start = System.nanoTime();
        List<Runner.Result> results;
        try (Runner runner = new Runner(r, address, o, p)) {
            if (!json) {
                out.printf("iwarp conformance: %s as %s, --app %s, --profile %s, %d checks%n",
                        r == Role.RESPONDER ? "the peer at " + address : "peers connecting to " + runner.listening(),
                        r.name().toLowerCase(Locale.ROOT), a.name().toLowerCase(Locale.ROOT),
                        p.name().toLowerCase(Locale.ROOT), checks.size());
                if (r == Role.INITIATOR) {
                    out.printf("listening on %s: start the peer's client in a loop, one connection per check%n",
                            runner.listening());
                }
                out.flush();
            }
            String[] group = {null};
            results = runner.run(checks, res -> {
                if (json) {
                    return;
                }
                if (!res.check().group().equals(group[0])) {
                    group[0] = res.check().group();
                    Reports.heading(out, res.check().id().split("\\.")[0] + ". " + group[0]);
                }
                Reports.line(out, res, p, verbose);
                out.flush();
            });
        } catch (IOException e) {
            cl.getErr().println("iwarp conformance: cannot listen on " + address + ": " + e.getMessage());
            return IwarpCommand.EXIT_FAILURE;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (json) {
            out.println(Reports.json(address.toString(), r, a, p, results, millis));
        } else {
            Reports.summary(out, results, millis);
        }
        out.flush();
        if (junitXml != null) {
            Path parent = junitXml.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (OutputStream os = new FileOutputStream(junitXml.toFile())) {
                Reports.junit(os, address.toString(), results, millis);
            }
        }
        return Reports.totals(results).get(Verdict.Status.FAILED) == 0 ? CommandLine.ExitCode.OK
                : IwarpCommand.EXIT_FAILURE;
    }

    private List<Check> select(List<Check> all, Role r, CommandLine cl) {
        List<Check> picked = new ArrayList<>();
        for (String id : only) {
            boolean any = all.stream().anyMatch(c -> matches(c, id));
            if (!any) {
                throw new CommandLine.ParameterException(cl, "--only " + id + ": no such check or group (see --list)");
            }
        }
        for (Check c : all) {
            boolean wanted = only.isEmpty() || only.stream().anyMatch(id -> matches(c, id));
            boolean slow = c.caution() != null && c.caution().contains("timeout");
            if (wanted && (list || c.roles().contains(r)) && !(skipSlow && slow)) {
                picked.add(c);
            }
        }
        return picked;
    }

    private static boolean matches(Check c, String id) {
        return c.id().equals(id.trim()) || c.id().startsWith(id.trim() + ".");
    }

    private static void list(PrintWriter out, List<Check> checks) {
        String group = null;
        for (Check c : checks) {
            if (!c.group().equals(group)) {
                group = c.group();
                out.println();
                out.println(c.id().split("\\.")[0] + ". " + group);
            }
            out.printf("  %-5s %s%n", c.id(), c.title());
            out.printf("        %s  %s  peer as %s%s%n", c.rfc(), String.join(" ", c.requirements()),
                    c.roles().size() == 2 ? "responder or initiator" : c.roles().iterator().next().name()
                            .toLowerCase(Locale.ROOT), c.needs().isEmpty() ? "" : "  needs "
                            + c.needs().toString().toLowerCase(Locale.ROOT).replace('_', ' '));
            if (c.caution() != null) {
                out.printf("        caution: %s%n", c.caution());
            }
        }
        out.println();
        out.printf("%d checks%n", checks.size());
    }

    private static <E extends Enum<E>> E parse(CommandLine cl, Class<E> type, String value, String option) {
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            StringBuilder b = new StringBuilder();
            for (E v : type.getEnumConstants()) {
                b.append(b.length() == 0 ? "" : ", ").append(v.name().toLowerCase(Locale.ROOT));
            }
            throw new CommandLine.ParameterException(cl, option + " is one of " + b + ", not " + value);
        }
    }

    static InetSocketAddress address(CommandLine cl, String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new CommandLine.ParameterException(cl, "--target is HOST:PORT, not " + hostPort);
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new CommandLine.ParameterException(cl, "--target port is a number: " + hostPort);
        }
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(cl, "--target port 0..65535: " + hostPort);
        }
        InetSocketAddress a = new InetSocketAddress(host, port);
        if (a.isUnresolved()) {
            throw new CommandLine.ParameterException(cl, "--target: cannot resolve " + host);
        }
        return a;
    }
}
