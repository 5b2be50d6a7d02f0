package org.iwarp4j.tools.rping;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import org.iwarp4j.tools.cli.ConnectionOptions;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.cm.CmEvent;

/**
 * rping's client ({@code rping -c}, the active side, librdmacm/examples/rping.c): connects with MPA revision 2
 * and IRD = ORD = 1, then for every ping fills its source buffer, advertises it, waits for the server's
 * go-ahead (the server has RDMA Read it), advertises its sink buffer, waits for the go-ahead (the server
 * has RDMA Written the data back) and, with {@code -V}, compares the two buffers.
 */
final class RpingClient extends RpingSession {

    /** rping's {@code start_buf}: the RDMA Read source the server reads the ping data from. */
    private final MemoryRegion start;

    RpingClient(RpingOptions options, PrintWriter out, PrintWriter err) {
        super(options, out, err, "rping-client");
        try {
            this.start = pd.allocateRegion(options.size(), Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    String role() {
        return "client";
    }

    /** Runs the pings; returns normally on success. */
    void run() throws Exception {
        // rping.c: the client asks IRD = ORD = 1 (rping's conn_param), MPA revision 2.
        ConnectionOptions mpa = options.connection();
        int ird = mpa.ird(1);
        int ord = mpa.ord(1);
        // The Request may ask for more than a queue pair of this RNIC holds (e.g. IRD 200 to see a peer clamp
        // it, interop/FINDINGS.md M5): the queue pair gets the RNIC's limit, RDMAP the negotiated values.
        int max = rnic.query().maxIrdOrd();
        qp = createQueuePair(Math.min(Math.max(ird, 1), max), Math.min(Math.max(ord, 1), max));
        verbs.postReceive();
        try {
            connection = Stacks.get(rnic.connect(options.address(), qp, mpa.applyTo(options.wire().connect())
                    .ird(ird).ord(ord).eventListener(event -> {
                        debug("cma_event type %s", cmaEventType(event));
                        if (event instanceof CmEvent.Disconnected) {
                            err.println("client DISCONNECT EVENT...");
                            err.flush();
                        }
                    }).build()), 30);
        } catch (Exception e) {
            throw new RpingFailure("connect error: " + Stacks.describe(e));
        }
        state = RpingState.CONNECTED;
        debug("rdma_connect successful");
        debugParameters();
        try {
            pings();
        } finally {
            disconnect();
        }
    }

    private void pings() throws Exception {
        int size = options.size();
        ByteBuffer source = start.buffer();
        ByteBuffer sink = rdma.buffer();
        // The same two adverts every ping: neither region is ever re-registered.
        RemoteBuffer sourceAdvert = start.remoteBuffer(0, size);
        RemoteBuffer sinkAdvert = rdma.remoteBuffer(0, size);
        for (long ping = 0; options.count() == 0 || ping < options.count(); ping++) {
            state = RpingState.RDMA_READ_ADV;
            RpingData.fill(source, size, ping);
            verbs.sendAdvert(RpingVerbs.Advert.SOURCE, sourceAdvert, 1);
            if (await(CompletionOpcode.RECV, RpingState.RDMA_WRITE_ADV) == null) {
                throw new RpingFailure(waitFailed(RpingState.RDMA_WRITE_ADV));
            }
            state = RpingState.RDMA_WRITE_ADV;
            verbs.sendAdvert(RpingVerbs.Advert.SINK, sinkAdvert, 1);
            if (await(CompletionOpcode.RECV, RpingState.RDMA_WRITE_COMPLETE) == null) {
                throw new RpingFailure(waitFailed(RpingState.RDMA_WRITE_COMPLETE));
            }
            state = RpingState.RDMA_WRITE_COMPLETE;
            if (options.validate() && mismatchWithin(source, sink, size)) {
                throw new RpingFailure("data mismatch!");
            }
            if (options.verbose()) {
                out.println("ping data: " + RpingData.string(sink, size));
                out.flush();
            }
        }
    }

    private static boolean mismatchWithin(ByteBuffer a, ByteBuffer b, int size) {
        return a.duplicate().limit(size).mismatch(b.duplicate().limit(size)) >= 0;
    }

}
