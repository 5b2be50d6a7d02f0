package org.iwarp4j.tools.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.iwarp4j.tools.IwarpCommand;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.cli.WireOptions;
import org.iwarp4j.tools.explain.Explainer;
import org.iwarp4j.tools.explain.Explanation;
import org.iwarp4j.tools.explain.LadderPage;
import org.iwarp4j.tools.pcap.Capture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code iwarp demo}: the main job. One process, two RNICs, one connection over loopback: RDMA Write,
 * RDMA Read, Send, Send with Invalidate, RDMA Write with Immediate, FetchAdd and CmpSwap, every octet and
 * value verified, then each operation followed down the layers to the TCP octets of the capture.
 */
@Command(name = "demo",
        mixinStandardHelpOptions = true,
        versionProvider = IwarpCommand.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
                "Run every RDMA operation between a server and a client in this JVM (TCP loopback), verify every "
                        + "octet and value, and show how each operation becomes RDMAP messages, DDP segments, MPA "
                        + "FPDUs (ULPDU_Length, PAD, CRC, markers) and TCP octets, decoded from a capture of the "
                        + "connection with the dissector of `iwarp explain`.",
                ""},
        footerHeading = "%nExamples:%n",
        footer = {
                "  iwarp demo",
                "  iwarp demo --pcap demo.pcap && iwarp explain --pcap demo.pcap",
                "  iwarp demo --crc off --markers --fields",
                "  iwarp demo --html demo.html",
                "",
                "Exit status: 0 every check passed, 1 a check failed or an operation did not complete, 2 usage error."})
public final class DemoCommand implements Callable<Integer> {

    @Mixin
    WireOptions wire;

    @Option(names = "--mss", paramLabel = "OCTETS", defaultValue = "1460",
            description = "effective MSS for the FPDU size (RFC 5044 §4.5; default ${DEFAULT-VALUE}, as on Ethernet "
                    + "with MTU 1500, so the 4000-octet Read Response is split into DDP segments); 0 = the TCP "
                    + "connection's MSS (about 64 KiB on loopback)")
    int mss;

    @Option(names = "--fields", description = "also show every field of every MPA frame and FPDU with its RFC section "
            + "(what `iwarp explain` prints)")
    boolean fields;

    @Option(names = "--html", paramLabel = "FILE",
            description = "also write the capture as a self-contained page: its ladder diagram, every arrow opening "
                    + "its layers (what `iwarp explain --pcap --html` draws)")
    Path html;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        CommandLine cl = spec.commandLine();
        if (mss != 0 && (mss < 128 || mss > 65535)) {
            throw new CommandLine.ParameterException(cl, "--mss must be 0 or 128..65535: " + mss);
        }
        PrintWriter out = cl.getOut();
        PrintWriter err = cl.getErr();
        Path capture = wire.pcap() != null ? wire.pcap() : Files.createTempFile("iwarp-demo-", ".pcap");
        boolean keep = wire.pcap() != null;
        try {
            return run(out, capture, keep);
        } catch (DemoFailure e) {
            err.println("iwarp demo: " + e.getMessage());
            return IwarpCommand.EXIT_FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("iwarp demo: interrupted");
            return IwarpCommand.EXIT_FAILURE;
        } catch (Exception e) {
            err.println("iwarp demo: " + Stacks.describe(e));
            return IwarpCommand.EXIT_FAILURE;
        } finally {
            out.flush();
            err.flush();
            if (!keep) {
                Files.deleteIfExists(capture);
            }
        }
    }

    /** The operations the demo ran, with their checks, above the ladder. */
    private static List<String> pageIntro(List<OperationRecord> operations) {
        List<String> lines = new ArrayList<>();
        lines.add("A server and a client, each with its own software RNIC in one JVM, over TCP loopback: the client "
                + "runs one of each RDMA operation on the server's memory, both sides check every octet and value.");
        int n = 0;
        for (OperationRecord op : operations) {
            long ok = op.checks().stream().filter(Check::passed).count();
            lines.add(++n + ". " + op.title() + ": " + op.purpose() + " (" + ok + " of " + op.checks().size()
                    + " checks passed)");
        }
        return lines;
    }

    private int run(PrintWriter out, Path capture, boolean keep) throws Exception {
        DemoReport report = new DemoReport(out, fields);
        List<OperationRecord> operations;
        try (DemoRun run = new DemoRun(wire, mss, capture)) {
            run.connect();
            report.header(run, keep ? capture.toString() : "a temporary file (--pcap FILE keeps it)");
            try {
                run.runAll();
            } finally {
                run.disconnect();
            }
            operations = run.operations();
        }
        // The RNICs are closed: the capture file is complete.
        Capture pcap = Capture.read(Files.readAllBytes(capture));
        Explanation explanation = Explainer.explainCapture(pcap, keep ? capture.toString() : "the demo's capture");
        WireTrace trace = WireTrace.decode(pcap, explanation);
        report.startup(trace);
        List<WireTrace.Message> messages = new ArrayList<>(trace.messages());
        int number = 0;
        for (OperationRecord op : operations) {
            List<WireTrace.Message> mine = new ArrayList<>();
            for (int i = 0; i < op.messages() && !messages.isEmpty(); i++) {
                mine.add(messages.remove(0));
            }
            report.operation(++number, op, mine);
        }
        report.unassigned(messages);
        boolean passed = operations.stream().allMatch(OperationRecord::passed) && trace.errors() == 0
                && messages.isEmpty();
        report.summary(operations, trace, keep
                ? "Capture: " + capture + "  (every field: ./iwarp explain --pcap " + capture
                        + "; Wireshark: tshark -r "
                        + capture + " --disable-protocol rpcordma --disable-protocol smb_direct -V)"
                : "Run with --pcap FILE to keep the capture for `iwarp explain --pcap FILE` and Wireshark.");
        if (html != null) {
            Files.writeString(html, LadderPage.render(explanation, "iwarp demo: every RDMA operation on the wire",
                    pageIntro(operations)), StandardCharsets.UTF_8);
            out.println("Page: " + html + " (the capture's ladder diagram; click an arrow for its layers)");
        }
        out.println(passed ? "Result: every check passed." : "Result: FAILED (see MISMATCH above).");
        return passed ? CommandLine.ExitCode.OK : IwarpCommand.EXIT_FAILURE;
    }
}
