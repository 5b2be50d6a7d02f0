package org.iwarp4j.tools.rping;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import org.iwarp4j.tools.IwarpCommand;
import org.iwarp4j.tools.cli.ConnectionOptions;
import org.iwarp4j.tools.cli.PersistentServer;
import org.iwarp4j.tools.cli.ResponderOptions;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.cli.WireOptions;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code iwarp rping}: rdma-core's rping (librdmacm/examples/rping.c) on the wire, either role, so it pairs with
 * Linux siw's {@code rping} both ways.
 */
@Command(name = "rping",
        versionProvider = IwarpCommand.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
                "rping, wire-compatible with rdma-core's: the client advertises a buffer of -S octets holding "
                        + "\"rdma-ping-<n>: \" and a rotating ASCII pattern, the server RDMA Reads it and RDMA Writes "
                        + "it back into a second buffer the client advertises; 16-octet big-endian adverts "
                        + "(u64 addr | u32 rkey | u32 len) travel in Sends. MPA revision 2, IRD = ORD = 1 from the "
                        + "client; the server answers ORD = the client's IRD.",
                ""},
        footerHeading = "%nExamples:%n",
        footer = {
                "  iwarp rping -s -a 0.0.0.0 -v                 # server (one connection, like rping without -P)",
                "  iwarp rping -c -a 127.0.0.1 -C 10 -V -v      # client: 10 pings, verify and print the data",
                "  iwarp rping -c -a 192.0.2.1 -C 1 --pcap rping.pcap",
                "  iwarp rping -s -P -a 127.0.0.1 -p 0          # persistent, a free port, until SIGTERM",
                "  iwarp rping -s -P --max-clients 8            # the 9th client refused",
                "",
                "With -P the server prints \"rping server: listening on ADDR:PORT (...)\" once bound, prefixes every "
                        + "line of a client with \"[client N ADDR:PORT] \" and ends each client with one line: "
                        + "\"ended: ...\" (stdout), \"failed: ...\" or \"refused: ...\" (stderr).",
                "",
                "Exit status: 0 success (the server also when the client disconnects, as rping; with -P when stopped "
                        + "by SIGINT/SIGTERM), 1 connection, completion or data failure, 2 usage error."})
public final class RpingCommand implements Callable<Integer> {

    /** rping's default port. */
    public static final int DEFAULT_PORT = 7174;

    static final class Role {
        @Option(names = "-s", required = true, description = "server side (passive)")
        boolean server;

        @Option(names = "-c", required = true, description = "client side (active)")
        boolean client;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Role role;

    @Option(names = "-P", description = "server: persistent, as rping -P: serve client after client, concurrently, "
            + "each with its own queue pair and buffers, until SIGINT or SIGTERM (exit status 0); a client's failure "
            + "ends that client only")
    boolean persistent;

    @Option(names = "--max-clients", paramLabel = "N", defaultValue = "" + PersistentServer.DEFAULT_MAX_CLIENTS,
            description = "with -P: clients served at once (default ${DEFAULT-VALUE}); one more is refused with an "
                    + "MPA Reply with R=1 and the reason as private data")
    int maxClients;

    @Option(names = "-a", paramLabel = "ADDR",
            description = "server: address to listen on (default 0.0.0.0); client: the server's address (required)")
    String address;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "" + DEFAULT_PORT,
            description = "port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "-C", paramLabel = "COUNT", defaultValue = "0", description = "ping count (default 0 = forever)")
    long count;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "" + RpingData.DEFAULT_SIZE,
            description = "ping data size, " + RpingData.MIN_SIZE + ".." + RpingData.MAX_SIZE
                    + " (default ${DEFAULT-VALUE}); both sides must use the same size")
    int size;

    @Option(names = "-v", description = "display ping data to stdout")
    boolean verbose;

    @Option(names = "-V", description = "validate ping data (client)")
    boolean validate;

    @Option(names = "-d", description = "debug printfs (rping's), including every connection manager event")
    boolean debug;

    @Mixin
    WireOptions wire;

    @Mixin
    ConnectionOptions connection;

    @Mixin
    ResponderOptions responder;

    @Option(names = "--inject", paramLabel = "FAULT", converter = RpingInjection.Converter.class,
            description = "provoke a protocol error, to see both sides report the Terminate and tear down: "
                    + "bad-stag (server: RDMA Write to a wrong STag), read-beyond (server: RDMA Read past the "
                    + "peer's region), no-recv (a Send the peer has no receive for); peer-bad-stag, peer-read-beyond "
                    + "(client: adverts that make the peer's Write/Read fail here), peer-no-recv (a receive not "
                    + "re-posted, so the peer's Send fails here)")
    RpingInjection inject;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine cl = spec.commandLine();
        PrintWriter out = cl.getOut();
        PrintWriter err = cl.getErr();
        if (size < RpingData.MIN_SIZE || size > RpingData.MAX_SIZE) {
            throw new CommandLine.ParameterException(cl, "Invalid size " + size + " (valid range is "
                    + RpingData.MIN_SIZE + " to " + RpingData.MAX_SIZE + ")");
        }
        if (count < 0) {
            throw new CommandLine.ParameterException(cl, "Invalid count " + count);
        }
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(cl, "Invalid port " + port);
        }
        if (role.client && address == null) {
            throw new CommandLine.ParameterException(cl, "the client needs the server's address: -a ADDR");
        }
        if (persistent && role.client) {
            throw new CommandLine.ParameterException(cl, "-P is a server option (-s -P)");
        }
        if (maxClients < 1) {
            throw new CommandLine.ParameterException(cl, "Invalid --max-clients " + maxClients + " (at least 1)");
        }
        if (!persistent && cl.getParseResult().hasMatchedOption("--max-clients")) {
            throw new CommandLine.ParameterException(cl, "--max-clients needs -P (a server without -P serves one "
                    + "client)");
        }
        connection.validate(cl);
        responder.validate(cl);
        if (role.client && (responder.reject() || responder.requiredOrd() > 0)) {
            throw new CommandLine.ParameterException(cl,
                    "--reject, --reject-data and --required-ord are server options");
        }
        if (inject != null && !inject.allowedFor(role.server)) {
            throw new CommandLine.ParameterException(cl, "--inject " + inject.cliName + " is for the "
                    + (role.server ? "client" : "server") + " (the " + (role.server ? "server" : "client")
                    + " does no such operation)");
        }
        InetSocketAddress socketAddress;
        try {
            socketAddress = new InetSocketAddress(InetAddress.getByName(address == null ? "0.0.0.0" : address), port);
        } catch (UnknownHostException e) {
            throw new CommandLine.ParameterException(cl,
                    "getaddrinfo failed - invalid hostname or IP address: " + address);
        }
        RpingOptions options = new RpingOptions(socketAddress, count, size, verbose, validate, debug, wire, connection,
                responder, inject);
        try {
            if (role.server && persistent) {
                RpingServer.runPersistent(options, maxClients, out, err);
            } else if (role.server) {
                try (RpingServer server = new RpingServer(options, out, err)) {
                    server.run();
                }
            } else {
                try (RpingClient client = new RpingClient(options, out, err)) {
                    client.run();
                }
            }
            return CommandLine.ExitCode.OK;
        } catch (RpingFailure e) {
            err.println(e.getMessage());
            err.println("rping " + (role.server ? "server" : "client") + " failed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("rping interrupted");
        } catch (Exception e) {
            err.println("rping " + (role.server ? "server" : "client") + " failed: " + Stacks.describe(e));
        } finally {
            out.flush();
            err.flush();
        }
        return IwarpCommand.EXIT_FAILURE;
    }
}
