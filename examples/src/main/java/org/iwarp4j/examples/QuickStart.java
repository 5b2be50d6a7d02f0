package org.iwarp4j.examples;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The quick start in one JVM: a {@link QuickStartServer} on a free loopback port and a
 * {@link QuickStartClient} connecting to it, each with its own RNIC, over real TCP.
 */
public final class QuickStart {

    /**
     * Both sides' view.
     *
     * @param server what the server saw
     * @param client what the client saw
     */
    public record Result(QuickStartServer.Result server, QuickStartClient.Result client) {}

    private QuickStart() {}

    public static void main(String[] args) throws Exception {
        System.out.println(run());
    }

    /**
     * Runs the server on a thread of its own and the client on this one.
     *
     * @return what both saw
     * @throws Exception if either fails
     */
    public static Result run() throws Exception {
        ExecutorService serverThread = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<InetSocketAddress> listening = new CompletableFuture<>();
            Future<QuickStartServer.Result> server = serverThread.submit(() -> QuickStartServer.serve(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), listening::complete));
            QuickStartClient.Result client = QuickStartClient.run(listening.get(10, TimeUnit.SECONDS));
            return new Result(server.get(30, TimeUnit.SECONDS), client);
        } finally {
            serverThread.shutdownNow();
        }
    }
}
