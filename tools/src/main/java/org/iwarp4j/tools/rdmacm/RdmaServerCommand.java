package org.iwarp4j.tools.rdmacm;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.iwarp4j.tools.IwarpCommand;
import org.iwarp4j.tools.cli.ConnectionOptions;
import org.iwarp4j.tools.cli.PersistentServer;
import org.iwarp4j.tools.cli.ResponderOptions;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.cli.WireOptions;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code iwarp rdma-server}: librdmacm's {@code rdma_server} example on the wire (librdmacm/examples/rdma_server.c):
 * listens on 0.0.0.0:7471, posts a 16-octet receive, accepts one connection, waits for the client's
 * Send, answers with a 16-octet Send, disconnects; prints {@code rdma_server: end 0} on success.
 */
@Command(name = "rdma-server",
        mixinStandardHelpOptions = true,
        versionProvider = IwarpCommand.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {"librdmacm's rdma_server: accept one connection (--persistent: client after client), receive "
                + "16 octets, send 16 octets back, disconnect. Pairs with rdma_client (Linux siw) and iwarp "
                + "rdma-client.", ""},
        footerHeading = "%nExamples:%n",
        footer = {"  iwarp rdma-server", "  iwarp rdma-server -p 7471 --pcap server.pcap",
                "  iwarp rdma-server --persistent -a 127.0.0.1 -p 0   # a free port, until SIGTERM",
                "  iwarp rdma-server --persistent --max-clients 8     # the 9th client refused",
                "",
                "With --persistent the server prints \"rdma_server: listening on ADDR:PORT (...)\" once bound, "
                        + "prefixes every line of a client with \"[client N ADDR:PORT] \" and ends each client with "
                        + "one line: \"ended: ...\" (stdout), \"failed: ...\" or \"refused: ...\" (stderr).",
                "",
                "Exit status: 0 success (\"rdma_server: end 0\"; with --persistent when stopped by SIGINT/SIGTERM), "
                        + "1 failure (\"end -1\"), 2 usage error."})
public final class RdmaServerCommand implements Callable<Integer> {

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7471", description = "port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "-a", paramLabel = "ADDR", defaultValue = "0.0.0.0",
            description = "address to listen on (default ${DEFAULT-VALUE}, like rdma_server)")
    String address;

    @Mixin
    WireOptions wire;

    @Mixin
    ConnectionOptions connection;

    @Mixin
    ResponderOptions responder;

    @Option(names = "-d", description = "print the connection request and what MPA negotiated")
    boolean debug;

    @Option(names = "--persistent", description = "serve client after client, concurrently, each with its own "
            + "queue pair, until SIGINT or SIGTERM (\"end 0\"); a client's failure ends that client only")
    boolean persistent;

    @Option(names = "--max-clients", paramLabel = "N", defaultValue = "" + PersistentServer.DEFAULT_MAX_CLIENTS,
            description = "with --persistent: clients served at once (default ${DEFAULT-VALUE}); one more is refused "
                    + "with an MPA Reply with R=1 and the reason as private data")
    int maxClients;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        InetSocketAddress bind = RdmaClientCommand.resolve(spec, address, port);
        connection.validate(spec.commandLine());
        responder.validate(spec.commandLine());
        if (maxClients < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-clients must be at least 1: "
                    + maxClients);
        }
        if (!persistent && spec.commandLine().getParseResult().hasMatchedOption("--max-clients")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-clients needs --persistent "
                    + "(without it rdma_server serves one client)");
        }
        out.println("rdma_server: start");
        out.flush();
        int result = persistent ? runPersistent(bind, out, err) : run(bind, out, err);
        out.println("rdma_server: end " + result);
        out.flush();
        return result == 0 ? CommandLine.ExitCode.OK : IwarpCommand.EXIT_FAILURE;
    }

    private int run(InetSocketAddress bind, PrintWriter out, PrintWriter err) {
        CompletableFuture<ConnectionRequest> request = new CompletableFuture<>();
        CompletableFuture<CmEvent.Rejected> autoRejected = new CompletableFuture<>();
        ListenOptions.Builder lb = responder.applyTo(connection.applyTo(wire.listen())).eventListener(e -> {
            if (e instanceof CmEvent.Rejected rejected) {
                autoRejected.complete(rejected); // --required-ord: MPA rejected the Request (RFC 6581 §9.1)
            }
        });
        return MessageExchange.run("rdma_server", err, x -> {
            try (Listener listener = x.rnic.listen(bind, lb.build(), r -> {
                if (!request.complete(r)) {
                    r.reject(new byte[0]); // rdma_server serves one connection
                }
            })) {
                CompletableFuture.anyOf(request, autoRejected).get(); // rdma_get_request: waits like rdma_server
                if (autoRejected.isDone()) {
                    out.println("rdma_server: " + Stacks.describeInsufficientIrd(autoRejected.get()));
                    out.flush();
                    return;
                }
                answer(x, request.get(), out);
            }
        });
    }

    /**
     * {@code --persistent}: client after client, each with its own queue pair on this server's RNIC, at most
     * {@code --max-clients} at once, until SIGINT, SIGTERM or an interrupt; 0 unless the listener cannot be opened.
     */
    private int runPersistent(InetSocketAddress bind, PrintWriter out, PrintWriter err) {
        PersistentServer server = new PersistentServer("rdma_server", maxClients, out, err);
        ListenOptions options = responder.applyTo(connection.applyTo(wire.listen())).eventListener(server.events())
                .build();
        try (Rnic rnic = Stacks.openRnic("rdma-server");
             Listener listener = rnic.listen(bind, options, server.requests((r, client) -> {
                 try (MessageExchange x = new MessageExchange(rnic, false)) {
                     try {
                         return answer(x, r, client.out());
                     } finally {
                         x.disconnect(client.err());
                     }
                 }
             }))) {
            server.serve(listener);
            return 0;
        } catch (RuntimeException e) {
            err.println("rdma_server: " + Stacks.describe(e));
            err.flush();
            return -1;
        }
    }

    /** Accepts (or with {@code --reject} rejects) {@code r}, then receives 16 octets and sends 16 back. */
    private String answer(MessageExchange x, ConnectionRequest r, PrintWriter out) throws Exception {
        if (debug) {
            out.printf("rdma_server: connection request from %s: %s%n", r.remoteAddress(), Stacks.describe(r));
            out.flush();
        }
        if (responder.reject()) {
            byte[] data = responder.rejectData();
            Stacks.get(r.reject(data), 10);
            out.println("rdma_server: rejected the connection request (--reject), private data "
                    + Stacks.hexOrNone(data));
            out.flush();
            return "rejected (--reject)";
        }
        // rdma_accept(id, NULL): IRD/ORD derived from the request (IRD = its ORD, ORD = its IRD), at most
        // the RNIC's limit.
        int max = x.maxIrdOrd();
        OptionalInt ird = connection.responderIrd(r.ord(), max, Stacks.atMost(r.ord(), max));
        OptionalInt ord = connection.ord(Stacks.atMost(r.ird(), max));
        x.createQueuePairAndPostReceive(max, max);
        x.connection = Stacks.get(r.accept(x.qp, new AcceptOptions(connection.privateData(), ird, ord)), 30);
        if (debug) {
            out.println("rdma_server: connected: " + Stacks.describe(x.connection.parameters()));
            out.flush();
        }
        x.awaitCompletion(x.recvCq, CompletionOpcode.RECV, "rdma_get_recv_comp");
        x.postSend();
        x.awaitCompletion(x.sendCq, CompletionOpcode.SEND, "rdma_get_send_comp");
        return "received 16 octets, sent 16";
    }
}
