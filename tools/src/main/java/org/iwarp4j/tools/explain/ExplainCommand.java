package org.iwarp4j.tools.explain;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.tools.IwarpCommand;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.pcap.Capture;
import org.iwarp4j.tools.pcap.PcapFormatException;
import org.iwarp4j.tools.report.HumanRenderer;
import org.iwarp4j.tools.report.JsonRenderer;
import org.iwarp4j.tools.report.Layer;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code iwarp explain}: decodes octets into their layers (MPA Request/Reply, FPDUs with markers and
 * CRC, the DDP segment and RDMAP message in each FPDU) with the stack's own decoders, for people (annotated, citing the
 * RFC section of every field) or for scripts ({@code --json}).
 */
@Command(name = "explain",
        mixinStandardHelpOptions = true,
        versionProvider = IwarpCommand.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
                "Decode iWARP octets into their layers, field by field, with the RFC section of each field.",
                "",
                "With --hex the octets start at an MPA Request or Reply (told apart by the key), followed by "
                        + "the FPDUs of that direction, decoded with the CRC and marker settings the frame "
                        + "negotiates; --fpdu says they start at an FPDU instead. With --pcap every TCP "
                        + "connection of a capture is decoded, both directions.",
                "",
                "Every FPDU's ULPDU is decoded as a DDP segment (RFC 5041) carrying an RDMAP message (RFC 5040, "
                        + "RFC 7306). A header a receiver would answer with a Terminate is an error entry naming that "
                        + "Terminate; what only the sequence shows (MSN order, MO/TO continuity, Read Responses "
                        + "against Read Requests, one Terminate) is reported as warnings (\"notes\" in JSON), never as "
                        + "errors.",
                ""},
        footerHeading = "%nExamples:%n",
        footer = {
                "  iwarp explain --hex samples/siw-rping-first-fpdus.hex",
                "  iwarp explain --hex fpdu.hex --fpdu --no-crc",
                "  iwarp explain --hex fpdu.hex --fpdu --markers --stream-offset 1592",
                "  iwarp explain --pcap capture.pcap --json",
                "  iwarp explain --pcap capture.pcap --summary",
                "  iwarp explain --pcap capture.pcap --html capture.html",
                "  iwarp explain --hex siw-terminate.hex --fpdu --terminate-layout siw",
                "",
                "Exit status: 0 decoded without errors, 1 the octets break a protocol rule (any error entry), "
                        + "2 usage error (bad options, unreadable file, bad hex)."})
public final class ExplainCommand implements Callable<Integer> {

    static final class Input {
        @Option(names = "--hex", paramLabel = "FILE", required = true,
                description = "hex text to decode ('-' = standard input); whitespace and '#' comments are ignored")
        Path hex;

        @Option(names = "--pcap", paramLabel = "FILE", required = true,
                description = "classic pcap capture: decode every TCP connection, both directions")
        Path pcap;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Input input;

    @Option(names = "--fpdu", description = "with --hex: the octets start at an FPDU, not at an MPA Request/Reply")
    boolean fpdu;

    @Option(names = "--crc", negatable = true,
            description = "with --hex: CRCs on (check every CRC) or off (RFC 5044 §4.4). With --fpdu the default "
                    + "is --crc; after an MPA frame the default is what the frame asks for (C bit)")
    Boolean crc;

    @Option(names = "--markers",
            description = "with --hex: the stream carries markers every 512 octets (RFC 5044 §4.3). After an MPA "
                    + "frame the default is none, since the peer's frame (its M bit) is not in the input")
    boolean markers;

    @Option(names = "--stream-offset", paramLabel = "N", converter = StreamOffsetConverter.class,
            description = "with --fpdu --markers: offset of the first octet from SeqStart (the first marker "
                    + "of the half connection), decimal or 0x-hex, a multiple of 4 (default 0)")
    Long streamOffset;

    @Option(names = "--terminate-layout", paramLabel = "rfc|siw", converter = TerminateLayoutConverter.class,
            description = "how to read a Terminate's control word when both readings are registered causes and nothing "
                    + "else tells them apart: rfc (RFC 5040 §4.8, the default) or siw (Linux siw's bit-mirrored word, "
                    + "interop/FINDINGS.md F1)")
    TerminateLayout terminateLayout;

    @Option(names = "--json", description = "one JSON object per frame, in a JSON array, instead of text")
    boolean json;

    @Option(names = "--summary", description = "with --pcap: one JSON object per connection instead of the frames: "
            + "Initiator and Responder, how the MPA startup ended, the Request and Reply, and per direction the FPDUs "
            + "by opcode, the first FPDU's octets, CRC errors, the first Terminate and the FIN or RST")
    boolean summary;

    @Option(names = "--html", paramLabel = "FILE",
            description = "with --pcap: write a self-contained page instead of the text: a ladder diagram of each "
                    + "connection, every arrow opening its layers (RDMAP, DDP, MPA, TCP octets)")
    Path html;

    @Option(names = "--all-octets", description = "show every octet in the hex dumps (default: the first "
            + HumanRenderer.DEFAULT_DUMP_LIMIT + " of each)")
    boolean allOctets;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        checkCombinations();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (summary) {
            return summary(out, err);
        }
        Explanation explanation;
        try {
            if (input.hex != null) {
                byte[] bytes = HexInput.parse(read(input.hex, "hex"));
                if (bytes.length == 0) {
                    return usageError(err, name(input.hex) + ": no octets in it");
                }
                HexStream stream = new HexStream(bytes, fpdu, crc, markers, streamOffset == null ? 0 : streamOffset);
                explanation = Explainer.explainHex(stream, name(input.hex), layout());
            } else {
                explanation = Explainer.explainCapture(readCapture(input.pcap), name(input.pcap), layout());
            }
        } catch (HexInput.BadHexException e) {
            return usageError(err, name(input.hex) + ": " + e.getMessage());
        } catch (PcapFormatException e) {
            if (html != null) {
                String page = LadderPage.failure(title(), name(input.pcap), e.getMessage());
                if (!writePage(page, err)) {
                    return IwarpCommand.EXIT_USAGE;
                }
                out.println(html + ": the page shows why " + name(input.pcap) + " cannot be read");
                out.flush();
            }
            return usageError(err, name(input.pcap) + ": " + e.getMessage());
        } catch (UnreadableFileException e) {
            return usageError(err, e.getMessage());
        }
        if (html != null) {
            if (!writePage(LadderPage.render(explanation, title(), List.of()), err)) {
                return IwarpCommand.EXIT_USAGE;
            }
            if (!json) {
                out.println(html + ": " + explanation.summary());
            }
        }
        if (json) {
            out.print(JsonRenderer.render(explanation.frames()));
            explanation.warnings().forEach(w -> err.println("iwarp explain: warning: " + w));
        } else if (html == null) {
            out.print(human(explanation,
                    new HumanRenderer(allOctets ? Integer.MAX_VALUE : HumanRenderer.DEFAULT_DUMP_LIMIT)));
        }
        out.flush();
        err.flush();
        return explanation.errors() > 0 ? IwarpCommand.EXIT_FAILURE : CommandLine.ExitCode.OK;
    }

    /**
     * {@code --summary}: each connection summed up as it is decoded ({@link ConnectionSummary#write}), never the
     * whole capture's frames at once.
     */
    private int summary(PrintWriter out, PrintWriter err) {
        Capture capture;
        try {
            capture = readCapture(input.pcap);
        } catch (PcapFormatException e) {
            return usageError(err, name(input.pcap) + ": " + e.getMessage());
        } catch (UnreadableFileException e) {
            return usageError(err, e.getMessage());
        }
        int errors = ConnectionSummary.write(capture, layout(), out);
        Explainer.warnings(capture).forEach(w -> err.println("iwarp explain: warning: " + w));
        out.flush();
        err.flush();
        return errors > 0 ? IwarpCommand.EXIT_FAILURE : CommandLine.ExitCode.OK;
    }

    /** The preamble, each section's heading and numbered frames, and the summary. */
    static String human(Explanation explanation, HumanRenderer renderer) {
        StringBuilder text = new StringBuilder();
        explanation.preamble().forEach(l -> text.append(l).append('\n'));
        explanation.warnings().forEach(w -> text.append("warning: ").append(w).append('\n'));
        int number = 0;
        for (Explainer.Section section : explanation.sections()) {
            text.append('\n');
            section.heading().forEach(l -> text.append(l).append('\n'));
            for (Layer frame : section.frames()) {
                text.append(section.heading().isEmpty() && number == 0 ? "" : "\n");
                renderer.render("#" + ++number + "  ", frame, 0, text);
            }
        }
        return text.append('\n').append(explanation.summary()).append('\n').toString();
    }

    private String title() {
        return "iwarp explain: " + name(input.pcap);
    }

    /** Writes the page to {@code --html}; false (and a message) when it cannot be written. */
    private boolean writePage(String page, PrintWriter err) {
        try {
            Files.writeString(html, page, StandardCharsets.UTF_8);
            return true;
        } catch (IOException e) {
            err.println("iwarp explain: cannot write " + html + ": " + Stacks.describe(e));
            err.flush();
            return false;
        }
    }

    private TerminateLayout layout() {
        return terminateLayout == null ? TerminateLayout.RFC : terminateLayout;
    }

    private void checkCombinations() {
        CommandLine cl = spec.commandLine();
        if (html != null && input.pcap == null) {
            throw new CommandLine.ParameterException(cl, "--html needs --pcap: the page draws the connections of a "
                    + "capture");
        }
        if (summary && (input.pcap == null || json || html != null)) {
            throw new CommandLine.ParameterException(cl, "--summary needs --pcap and replaces --json and --html: it "
                    + "summarises each connection of a capture");
        }
        if (input.pcap != null) {
            if (fpdu || crc != null || markers || streamOffset != null) {
                throw new CommandLine.ParameterException(cl, "--fpdu, --crc/--no-crc, --markers and --stream-offset "
                        + "apply to --hex only: a capture's settings come from its MPA Request and Reply");
            }
            return;
        }
        if (streamOffset != null && !(fpdu && markers)) {
            throw new CommandLine.ParameterException(cl, "--stream-offset needs --fpdu --markers: after an MPA "
                    + "frame SeqStart is the first octet after it (RFC 5044 §4.3)");
        }
    }

    private static String name(Path p) {
        return p.toString().equals("-") ? "<stdin>" : p.toString();
    }

    private int usageError(PrintWriter err, String message) {
        err.println("iwarp explain: " + message);
        err.flush();
        return IwarpCommand.EXIT_USAGE;
    }

    private String read(Path path, String what) throws UnreadableFileException {
        if (path.toString().equals("-")) {
            try {
                return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UnreadableFileException("cannot read standard input: " + e.getMessage());
            }
        }
        return new String(readBytes(path), StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(Path path) throws UnreadableFileException {
        try {
            if (Files.isDirectory(path)) {
                throw new UnreadableFileException("cannot read " + path + ": it is a directory");
            }
            return Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new UnreadableFileException("cannot read " + path + ": no such file");
        } catch (IOException e) {
            throw new UnreadableFileException("cannot read " + path + ": " + e.getMessage());
        }
    }

    /** Reads a capture record by record: the file is not held whole ({@link Capture#read(InputStream)}). */
    private static Capture readCapture(Path path) throws UnreadableFileException, PcapFormatException {
        if (Files.isDirectory(path)) {
            throw new UnreadableFileException("cannot read " + path + ": it is a directory");
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(path), 1 << 16)) {
            return Capture.read(in);
        } catch (NoSuchFileException e) {
            throw new UnreadableFileException("cannot read " + path + ": no such file");
        } catch (IOException e) {
            throw new UnreadableFileException("cannot read " + path + ": " + e.getMessage());
        }
    }

    private static final class UnreadableFileException extends Exception {
        UnreadableFileException(String message) {
            super(message);
        }
    }

    /** {@code --terminate-layout}: {@code rfc} or {@code siw}. */
    static final class TerminateLayoutConverter implements CommandLine.ITypeConverter<TerminateLayout> {
        @Override
        public TerminateLayout convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "rfc" -> TerminateLayout.RFC;
                case "siw" -> TerminateLayout.SIW_MIRRORED;
                default -> throw new CommandLine.TypeConversionException("'" + value + "' is not a layout: rfc or siw");
            };
        }
    }

    /** {@code --stream-offset}: decimal or {@code 0x} hex, 0..2^32-1, a multiple of 4. */
    static final class StreamOffsetConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long v;
            try {
                v = value.startsWith("0x") || value.startsWith("0X")
                        ? Long.parseLong(value.substring(2), 16) : Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a number");
            }
            if (v < 0 || v > 0xffffffffL) {
                throw new CommandLine.TypeConversionException(value
                        + " is outside 0..4294967295 (a 32-bit stream offset)");
            }
            if ((v & 3) != 0) {
                throw new CommandLine.TypeConversionException(value
                        + " is not a multiple of 4: every FPDU starts 4-aligned relative to SeqStart (RFC 5044 §4.3)");
            }
            return v;
        }
    }
}
