package org.iwarp4j.tools.rdmacm;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import org.iwarp4j.tools.IwarpCommand;
import org.iwarp4j.tools.cli.ConnectionOptions;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.cli.WireOptions;
import org.iwarp4j.verbs.CompletionOpcode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code iwarp rdma-client}: librdmacm's {@code rdma_client} example on the wire (librdmacm/examples/rdma_client.c):
 * posts a 16-octet receive, connects to 127.0.0.1:7471 with IRD = ORD = 128, sends 16 octets, waits for
 * the Send completion and for the server's 16 octets, disconnects; prints {@code rdma_client: end 0}.
 */
@Command(name = "rdma-client",
        mixinStandardHelpOptions = true,
        versionProvider = IwarpCommand.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {"librdmacm's rdma_client: connect, send 16 octets, receive 16 octets, disconnect. "
                + "Pairs with rdma_server (Linux siw) and iwarp rdma-server.", ""},
        footerHeading = "%nExamples:%n",
        footer = {"  iwarp rdma-client", "  iwarp rdma-client -s 192.0.2.1 -p 7471 --crc off", "",
                "Exit status: 0 success (\"rdma_client: end 0\"), 1 failure (\"end -1\"), 2 usage error."})
public final class RdmaClientCommand implements Callable<Integer> {

    @Option(names = "-s", paramLabel = "SERVER", defaultValue = "127.0.0.1",
            description = "server address (default ${DEFAULT-VALUE}, like rdma_client)")
    String server;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7471", description = "port (default ${DEFAULT-VALUE})")
    int port;

    @Mixin
    WireOptions wire;

    @Mixin
    ConnectionOptions connection;

    @Option(names = "-d", description = "print what MPA negotiated")
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        InetSocketAddress target = resolve(spec, server, port);
        connection.validate(spec.commandLine());
        out.println("rdma_client: start");
        out.flush();
        int result = run(target, out, err);
        out.println("rdma_client: end " + result);
        out.flush();
        return result == 0 ? CommandLine.ExitCode.OK : IwarpCommand.EXIT_FAILURE;
    }

    private int run(InetSocketAddress target, PrintWriter out, PrintWriter err) {
        return MessageExchange.run("rdma_client", err, x -> {
            int max = x.maxIrdOrd();
            int ird = connection.ird(max);
            int ord = connection.ord(max);
            x.createQueuePairAndPostReceive(Math.min(ird, max), Math.min(ord, max));
            x.connection = Stacks.get(x.rnic.connect(target, x.qp, connection.applyTo(wire.connect()).ird(ird)
                    .ord(ord).build()), 30);
            if (debug) {
                out.println("rdma_client: connected: " + Stacks.describe(x.connection.parameters()));
                out.flush();
            }
            x.postSend();
            x.awaitCompletion(x.sendCq, CompletionOpcode.SEND, "rdma_get_send_comp");
            x.awaitCompletion(x.recvCq, CompletionOpcode.RECV, "rdma_get_recv_comp");
        });
    }

    /** {@code host}:{@code port} resolved, or a usage error. */
    static InetSocketAddress resolve(CommandLine.Model.CommandSpec spec, String host, int port) {
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(spec.commandLine(), "invalid port " + port);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "rdma_getaddrinfo: unknown host " + host);
        }
    }
}
