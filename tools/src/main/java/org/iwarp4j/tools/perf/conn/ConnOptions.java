package org.iwarp4j.tools.perf.conn;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iwarp4j.tools.cli.Usage;
import org.iwarp4j.tools.cli.WireOptions;
import org.iwarp4j.tools.perf.PerfOptions;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The options {@code iwarp perf connect} and {@code iwarp perf idle} share. */
public final class ConnOptions {

    /** The most loopback addresses {@code --addresses} spreads over (127.0.0.1 .. 127.0.0.250). */
    static final int MAX_ADDRESSES = 250;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SERVER",
            description = "the server to connect to (client); without it (and without --loopback) this is the "
                    + "server, which accepts every connection until it is stopped")
    String server;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "" + PerfOptions.DEFAULT_PORT,
            description = "port (default ${DEFAULT-VALUE}; the server listens on it, the client connects to it)")
    int port;

    @Option(names = "--loopback", description = "run the accepting side here too, over 127.0.0.x")
    boolean loopback;

    @Option(names = "--in-flight", paramLabel = "K", defaultValue = "64",
            description = "connections being set up (or torn down) at once, 1..4096 (default ${DEFAULT-VALUE})")
    int inFlight;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "event loop threads of each RNIC (default ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--qp-depth", paramLabel = "D", defaultValue = "256",
            description = "send and receive queue depth of every queue pair (default ${DEFAULT-VALUE}, "
                    + "QueuePairConfig's default)")
    int qpDepth;

    @Option(names = "--addresses", paramLabel = "K", defaultValue = "1",
            description = "with --loopback: listen on 127.0.0.1 .. 127.0.0.K and connect round robin, so that each "
                    + "address has its own ephemeral ports (default ${DEFAULT-VALUE})")
    int addresses;

    @Option(names = {"--out_json", "--out_json_file"}, paramLabel = "FILE",
            description = "also write the results as JSON")
    Path outJson;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "0.0.0.0",
            description = "server: the address to listen on (default ${DEFAULT-VALUE})")
    String bind;

    @Option(names = "--exit-after", paramLabel = "N", defaultValue = "0",
            description = "server: end once N connections have ended (default: run until stopped)")
    long exitAfter;

    @Option(names = "--control", hidden = true,
            description = "server: driven through stdin by the process that started it (iwarp perf idle --loopback)")
    boolean control;

    @Mixin
    WireOptions wire;

    /** The command these options are mixed into. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /**
     * Checks the shared options and returns the command's command line, for its own checks; usage errors throw
     * {@link CommandLine.ParameterException}.
     */
    CommandLine check() {
        CommandLine cl = command.commandLine();
        if (server != null && loopback) {
            throw new CommandLine.ParameterException(cl, "--loopback runs both ends here: give no SERVER");
        }
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(cl, "invalid port " + port);
        }
        Usage.range(cl, "--in-flight", inFlight, 1, 4096);
        Usage.range(cl, "--threads", threads, 1, 64);
        Usage.range(cl, "--qp-depth", qpDepth, 1, 32768);
        Usage.range(cl, "--addresses", addresses, 1, MAX_ADDRESSES);
        if (addresses > 1 && !loopback && !control) {
            throw new CommandLine.ParameterException(cl, "--addresses spreads a --loopback run over 127.0.0.x");
        }
        if (wire.pcap() != null) {
            throw new CommandLine.ParameterException(cl, "--pcap: a capture of thousands of connections is not"
                    + " supported here; capture one connection with iwarp perf write --pcap");
        }
        return cl;
    }

    /** Client or loopback: the test connects; else this is the server. */
    boolean connects() {
        return server != null || loopback;
    }

    ConnSettings settings(long maxQueuePairs) {
        return new ConnSettings(threads, qpDepth, qpDepth, (int) Math.min(Integer.MAX_VALUE, Math.max(16,
                maxQueuePairs)), wire);
    }

    /** The server's address (client mode). */
    InetSocketAddress serverAddress(CommandLine cl) {
        try {
            return new InetSocketAddress(InetAddress.getByName(server), port);
        } catch (UnknownHostException e) {
            throw new CommandLine.ParameterException(cl, "unknown host " + server);
        }
    }

    /** The server's listening address (server mode). */
    InetSocketAddress bindAddress(CommandLine cl) {
        try {
            return new InetSocketAddress(InetAddress.getByName(bind), port);
        } catch (UnknownHostException e) {
            throw new CommandLine.ParameterException(cl, "unknown address " + bind);
        }
    }

    /** The loopback addresses a --loopback run listens on, each with {@code port} (0: any). */
    List<InetSocketAddress> loopbackAddresses(int port) {
        List<InetSocketAddress> a = new ArrayList<>();
        for (int i = 1; i <= addresses; i++) {
            try {
                a.add(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) i}), port));
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        return a;
    }

    /** The arguments that make another process's server match these settings. */
    List<String> serverArguments() {
        List<String> a = new ArrayList<>(List.of("--threads", Integer.toString(threads), "--qp-depth",
                Integer.toString(qpDepth), "--crc", wire.crc() ? "on" : "off"));
        if (wire.markers()) {
            a.add("--markers");
        }
        return a;
    }
}
