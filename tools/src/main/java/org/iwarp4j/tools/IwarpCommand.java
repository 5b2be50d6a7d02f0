package org.iwarp4j.tools;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.iwarp4j.tools.conformance.ConformanceCommand;
import org.iwarp4j.tools.demo.DemoCommand;
import org.iwarp4j.tools.explain.ExplainCommand;
import org.iwarp4j.tools.perf.PerfCommand;
import org.iwarp4j.tools.rdmacm.RdmaClientCommand;
import org.iwarp4j.tools.rdmacm.RdmaServerCommand;
import org.iwarp4j.tools.rping.RpingCommand;
import org.iwarp4j.tools.soak.SoakCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code iwarp} command. Exit status: 0 success, 1 protocol or validation failure, 2 usage error.
 */
@Command(name = "iwarp",
        mixinStandardHelpOptions = true,
        versionProvider = IwarpCommand.Version.class,
        description = "iwarp4j: an iWARP stack (RDMAP / DDP / MPA over TCP) in Java.",
        subcommands = {DemoCommand.class, ExplainCommand.class, RpingCommand.class, PerfCommand.class,
                RdmaServerCommand.class,
                RdmaClientCommand.class, ConformanceCommand.class, SoakCommand.class, CommandLine.HelpCommand.class})
public final class IwarpCommand implements Runnable {

    /** Exit status for a protocol or validation failure (bad bytes, failed verification). */
    public static final int EXIT_FAILURE = 1;
    /** Exit status for a usage error (picocli's own convention). */
    public static final int EXIT_USAGE = CommandLine.ExitCode.USAGE;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
    }

    public static void main(String[] args) {
        // UTF-8 whatever the locale: the output cites RFC sections with '§'.
        CommandLine cl = commandLine()
                .setOut(new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true))
                .setErr(new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
        System.exit(cl.execute(args));
    }

    /** The configured command line, shared by {@link #main} and the tests. */
    public static CommandLine commandLine() {
        return new CommandLine(new IwarpCommand());
    }

    /** The version line of every subcommand. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = IwarpCommand.class.getPackage().getImplementationVersion();
            return new String[] {"iwarp4j " + (v == null ? "(development build)" : v)};
        }
    }
}
