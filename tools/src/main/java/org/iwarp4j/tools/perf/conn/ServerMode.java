package org.iwarp4j.tools.perf.conn;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.iwarp4j.tools.IwarpCommand;
import org.iwarp4j.tools.cli.Stacks;
import picocli.CommandLine;

/**
 * {@code iwarp perf connect} or {@code iwarp perf idle} without SERVER: accept every connection, each with a
 * queue pair of its own, and report the counts every few seconds while they change; with {@code --exit-after N}
 * end once N connections have ended. With the hidden {@code --control}, the child of
 * {@link AcceptorControl}.
 */
final class ServerMode {

    /** How often the counts are printed while they change. */
    static final Duration STATUS_EVERY = Duration.ofSeconds(5);

    private ServerMode() {}

    /** The measuring side of a command: runs against a server, or here with {@code --loopback}. */
    @FunctionalInterface
    interface Client {
        void run(CommandLine cl, PrintWriter out) throws Exception;
    }

    /**
     * Runs {@code client}, or this server when the options connect nowhere; returns the exit status, failures
     * reported on stderr as {@code "iwarp perf COMMAND: ..."}.
     */
    static int serveOrRun(ConnOptions options, CommandLine cl, Client client) {
        PrintWriter out = cl.getOut();
        PrintWriter err = cl.getErr();
        String command = cl.getCommandName();
        try {
            if (!options.connects()) {
                run(options, cl, out);
            } else {
                client.run(cl, out);
            }
            return CommandLine.ExitCode.OK;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("iwarp perf " + command + ": interrupted");
        } catch (Exception e) {
            err.println("iwarp perf " + command + ": " + Stacks.describe(e));
        } finally {
            out.flush();
            err.flush();
        }
        return IwarpCommand.EXIT_FAILURE;
    }

    private static void run(ConnOptions options, CommandLine cl, PrintWriter out) throws Exception {
        long exitAfter = options.exitAfter;
        try (Acceptor acceptor = new Acceptor(options.settings(1 << 20))) {
            if (options.control) {
                AcceptorControl.serve(acceptor, acceptor.listen(options.loopbackAddresses(options.port)));
                return;
            }
            InetSocketAddress bind = options.bindAddress(cl);
            int port = acceptor.listen(bind);
            out.printf("listening on %s:%d (%s): accepting every connection, each with a queue pair (%s), %s%n",
                    bind.getAddress().getHostAddress(), port, acceptor.rnic().transport(),
                    options.settings(0).describeQueuePairs(), exitAfter > 0 ? "until " + exitAfter
                            + " connections have ended" : "until stopped (Ctrl-C)");
            out.flush();
            String last = "";
            while (true) {
                boolean done = acceptor.awaitEnded(exitAfter > 0 ? exitAfter : Long.MAX_VALUE, STATUS_EVERY);
                String status = String.format("accepted %d, open %d, ended %d%s", acceptor.accepted(), acceptor.open(),
                        acceptor.ended(), acceptor.failed() == 0 ? "" : ", failed " + acceptor.failed() + " (first: "
                                + acceptor.firstFailure() + ")");
                if (!status.equals(last) || done) {
                    out.println(status);
                    out.flush();
                    last = status;
                }
                if (done) {
                    return;
                }
            }
        }
    }
}
