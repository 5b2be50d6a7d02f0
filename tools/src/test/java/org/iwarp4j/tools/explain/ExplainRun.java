package org.iwarp4j.tools.explain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.iwarp4j.tools.cli.ToolRun;
import org.iwarp4j.tools.report.TinyJson;

/** One run of {@code iwarp ...} through {@link IwarpCommand#commandLine()}, output captured. */
record ExplainRun(int exit, String out, String err) {

    static ExplainRun run(String... args) {
        ToolRun r = ToolRun.run(args);
        return new ExplainRun(r.exit(), r.out(), r.err());
    }

    /** Runs {@code explain --hex FILE --json extra...} on {@code bytes} written as hex to a file in {@code dir}. */
    static ExplainRun json(Path dir, byte[] bytes, String... extra) {
        List<String> args = new ArrayList<>(List.of("explain", "--hex", hexFile(dir, bytes).toString(), "--json"));
        args.addAll(List.of(extra));
        return run(args.toArray(String[]::new));
    }

    /** Same, human output. */
    static ExplainRun text(Path dir, byte[] bytes, String... extra) {
        List<String> args = new ArrayList<>(List.of("explain", "--hex", hexFile(dir, bytes).toString()));
        args.addAll(List.of(extra));
        return run(args.toArray(String[]::new));
    }

    static Path hexFile(Path dir, byte[] bytes) {
        return write(dir, HexFormat.of().formatHex(bytes) + "\n");
    }

    static Path write(Path dir, String text) {
        try {
            Path f = Files.createTempFile(dir, "in", ".hex");
            Files.writeString(f, text);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path writeBytes(Path dir, byte[] bytes, String suffix) {
        try {
            Path f = Files.createTempFile(dir, "in", suffix);
            Files.write(f, bytes);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The output as parsed JSON (fails the test if it is not a JSON array of objects). */
    List<Map<String, Object>> entries() {
        return TinyJson.parseArrayOfObjects(out);
    }

    @Override
    public String toString() {
        return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
