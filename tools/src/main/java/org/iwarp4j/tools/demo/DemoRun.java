package org.iwarp4j.tools.demo;

import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.cli.WireOptions;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionParameters;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.Listener;

/**
 * The demo's exchange: a server and a client, each with its own RNIC in this JVM, connect over TCP
 * loopback; the client runs one of each operation against the server's memory and both sides check every
 * octet and value. The client's connection is captured (pcap) for {@link WireTrace}.
 */
final class DemoRun implements AutoCloseable {

    static final int WRITE_LENGTH = 302;
    static final int READ_LENGTH = 4000;
    static final int WRITE_IMM_LENGTH = 200;
    static final long IMMEDIATE_DATA = 0x1122_3344_5566_7788L;
    static final long ATOMIC_INITIAL = 100;
    static final long ATOMIC_ADD = 5;
    static final long ATOMIC_SWAP = 0xCAFEL;
    private static final long CONNECT_TIMEOUT_SECONDS = 20;

    private final WireOptions wire;
    private final int mss;
    private final Path capture;
    final DemoSide server;
    final DemoSide client;
    private final List<OperationRecord> operations = new ArrayList<>();

    // Server memory
    private MemoryRegion sink;
    private MemoryRegion source;
    private MemoryRegion receives;
    private MemoryRegion atomicWord;
    private MemoryRegion invalidatable;
    // Client memory
    private MemoryRegion data;
    private MemoryRegion readSink;
    private MemoryRegion atomicResults;
    /** The regions above by name, for the printed work requests; made once all exist. */
    private WorkRequests.Names names;

    private Listener listener;
    private long nextWrId = 1;

    DemoRun(WireOptions wire, int mss, Path capture) throws Exception {
        this.wire = wire;
        this.mss = mss;
        this.capture = capture;
        this.server = new DemoSide("server");
        try {
            this.client = new DemoSide("client");
        } catch (Exception e) {
            server.close();
            throw e;
        }
    }

    List<OperationRecord> operations() {
        return operations;
    }

    ConnectionParameters clientParameters() {
        return client.connection.parameters();
    }

    ConnectionParameters serverParameters() {
        return server.connection.parameters();
    }

    InetSocketAddress serverAddress() {
        return listener.localAddress();
    }

    /**
     * Registers memory, connects (receives posted first, so that no Send finds none, RFC 5040 §5.3) and
     * fast-registers the server's shell.
     */
    void connect() throws Exception {
        sink = server.pd.allocateRegion(4096, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        source = server.pd.allocateRegion(8192, Access.REMOTE_READ);
        fill(source.buffer(), "RDMA Read took me from the server's memory without the server's CPU. ", READ_LENGTH);
        receives = server.pd.allocateRegion(512, Access.LOCAL_WRITE);
        atomicWord = server.pd.allocateRegion(8, Access.LOCAL_WRITE, Access.REMOTE_ATOMIC);
        atomicView(atomicWord, server).putLong(0, ATOMIC_INITIAL);
        invalidatable = server.pd.allocateFastRegistration(256);
        data = client.pd.allocateRegion(4096);
        readSink = client.pd.allocateRegion(8192, Access.LOCAL_WRITE);
        atomicResults = client.pd.allocateRegion(16, Access.LOCAL_WRITE);

        // Three receives for the three operations that consume one: Send, Send with Invalidate, Immediate Data.
        for (int i = 0; i < 3; i++) {
            server.qp.postReceive(ReceiveWorkRequest.of(100 + i, receives.sge(i * 128, 128)));
        }
        // The server accepts the client's request as soon as it arrives (rdma_get_request, rdma_accept).
        CompletableFuture<ConnectionRequest> requested = new CompletableFuture<>();
        CompletableFuture<Connection> accepted = requested.thenCompose(request -> request.accept(server.qp));
        listener = server.rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                wire.listen().pcapFile(null).mpa(m -> m.emss(mss)).build(), requested::complete);
        client.connection = Stacks.get(client.rnic.connect(listener.localAddress(), client.qp,
                wire.connect().pcapFile(capture).mpa(m -> m.emss(mss)).ird(4).ord(4).build()), CONNECT_TIMEOUT_SECONDS);
        server.connection = Stacks.get(accepted, CONNECT_TIMEOUT_SECONDS);

        // The server binds memory to its fast-registration shell: a local operation, nothing on the wire.
        server.qp.postSend(SendWorkRequest.FastRegister.of(50, invalidatable, ByteBuffer.allocateDirect(256),
                Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        server.sendCompletion(CompletionOpcode.FAST_REGISTER);
        names = regionNames();
    }

    /** The regions by the names the printed code gives them. */
    private WorkRequests.Names regionNames() {
        Map<String, MemoryRegion> s = new LinkedHashMap<>();
        s.put("sink", sink);
        s.put("source", source);
        s.put("receives", receives);
        s.put("atomicWord", atomicWord);
        s.put("invalidatable", invalidatable);
        Map<String, MemoryRegion> c = new LinkedHashMap<>();
        c.put("data", data);
        c.put("readSink", readSink);
        c.put("atomicResults", atomicResults);
        return new WorkRequests.Names(s, c);
    }

    void runAll() throws Exception {
        rdmaWrite();
        rdmaRead();
        send();
        sendWithInvalidate();
        writeWithImmediate();
        fetchAdd();
        compareSwap();
    }

    private void rdmaWrite() throws Exception {
        byte[] payload = text("RDMA Write placed me at the server's STag and Tagged Offset. ", WRITE_LENGTH);
        data.buffer().put(0, payload);
        RemoteBuffer target = sink.remoteBuffer(16, payload.length);
        long to = target.taggedOffset();
        SendWorkRequest wr = SendWorkRequest.RdmaWrite.of(nextWrId++, data.sge(0, payload.length), target);
        client.qp.postSend(wr);
        WorkCompletion wc = client.sendCompletion(CompletionOpcode.RDMA_WRITE);
        operations.add(new OperationRecord("RDMA Write", "the client writes " + payload.length
                + " octets into the server's registered memory; the server's CPU and receive queue are not involved",
                List.of("client.qp.postSend(" + WorkRequests.describe(wr, names) + ")"),
                List.of(WorkRequests.completion("client", "send", wc)),
                List.of(new Check(String.format("server memory at STag %s TO 0x%x holds the %d octets written (polled: "
                        + "the client's completion says TCP took them, RFC 5040 §5.5; the server's CPU is not told)",
                        sink.stag(), to, payload.length), arrives(sink.buffer(), 16, payload)),
                        new Check("completion length " + wc.byteLength() + " = " + payload.length,
                                wc.byteLength() == payload.length)),
                1));
    }

    private void rdmaRead() throws Exception {
        SendWorkRequest wr = SendWorkRequest.RdmaRead.of(nextWrId++, readSink.sge(0, READ_LENGTH),
                source.remoteBuffer());
        client.qp.postSend(wr);
        WorkCompletion wc = client.sendCompletion(CompletionOpcode.RDMA_READ);
        byte[] expected = new byte[READ_LENGTH];
        source.buffer().get(0, expected);
        operations.add(new OperationRecord("RDMA Read", "the client reads " + READ_LENGTH + " octets of the server's "
                + "memory: a Read Request goes out, the server's RNIC answers with a Read Response (tagged, in "
                + "MSS-sized segments) placed in the client's sink",
                List.of("client.qp.postSend(" + WorkRequests.describe(wr, names) + ")"),
                List.of(WorkRequests.completion("client", "send", wc)),
                List.of(new Check(String.format("client sink STag %s holds the %d octets of the server's source STag "
                        + "%s", readSink.stag(), READ_LENGTH, source.stag()), equal(readSink.buffer(), 0, expected))),
                2));
    }

    private void send() throws Exception {
        byte[] payload =
                "Hello, server! This Send consumed the first receive you posted.".getBytes(StandardCharsets.US_ASCII);
        data.buffer().put(1024, payload);
        SendWorkRequest wr = SendWorkRequest.Send.of(nextWrId++, data.sge(1024, payload.length));
        client.qp.postSend(wr);
        WorkCompletion sent = client.sendCompletion(CompletionOpcode.SEND);
        WorkCompletion got = server.receiveCompletion(CompletionOpcode.RECV);
        operations.add(new OperationRecord("Send", "the client sends " + payload.length + " octets; they land in the "
                + "receive buffer the server posted before connecting (untagged, queue 0)",
                List.of("server.qp.postReceive(ReceiveWorkRequest.of(100, receives.sge(0, 128)))  "
                        + "// before accept", "client.qp.postSend(" + WorkRequests.describe(wr, names) + ")"),
                List.of(WorkRequests.completion("client", "send", sent),
                WorkRequests.completion("server", "receive", got)),
                List.of(new Check("the server's receive 100 completed with " + payload.length + " octets",
                        got.wrId() == 100 && got.byteLength() == payload.length),
                        new Check("the server's receive buffer holds the message",
                                equal(receives.buffer(), 0, payload))),
                1));
    }

    private void sendWithInvalidate() throws Exception {
        byte[] payload = "Done with your buffer: invalidate its STag.".getBytes(StandardCharsets.US_ASCII);
        data.buffer().put(2048, payload);
        Stag stag = invalidatable.stag();
        boolean validBefore = invalidatable.isValid();
        SendWorkRequest wr = SendWorkRequest.SendWithInvalidate.of(nextWrId++, stag, data.sge(2048, payload.length));
        client.qp.postSend(wr);
        WorkCompletion sent = client.sendCompletion(CompletionOpcode.SEND_WITH_INVALIDATE);
        WorkCompletion got = server.receiveCompletion(CompletionOpcode.RECV);
        operations.add(new OperationRecord("Send with Invalidate", "a Send that also tells the server's RNIC to "
                + "invalidate STag " + stag + " (a fast-registered region) before the receive completes",
                List.of("client.qp.postSend(" + WorkRequests.describe(wr, names) + ")"),
                List.of(WorkRequests.completion("client", "send", sent),
                WorkRequests.completion("server", "receive", got)),
                List.of(new Check("the server's receive 101 holds the " + payload.length + " octets",
                        got.wrId() == 101 && got.byteLength() == payload.length
                        && equal(receives.buffer(), 128, payload)),
                        new Check("the receive completion reports STag " + stag + " invalidated",
                                got.invalidatedStag().equals(Optional.of(stag))),
                        new Check("STag " + stag + " was valid before and is invalid now", validBefore
                                && !invalidatable.isValid())),
                1));
    }

    private void writeWithImmediate() throws Exception {
        byte[] payload = text("Write with Immediate: placed first, then announced. ", WRITE_IMM_LENGTH);
        data.buffer().put(3072, payload);
        RemoteBuffer target = sink.remoteBuffer(1024, payload.length);
        long to = target.taggedOffset();
        SendWorkRequest wr = SendWorkRequest.RdmaWriteWithImmediate.of(nextWrId++, data.sge(3072, payload.length),
                target, IMMEDIATE_DATA);
        client.qp.postSend(wr);
        WorkCompletion sent = client.sendCompletion(CompletionOpcode.RDMA_WRITE_WITH_IMMEDIATE);
        WorkCompletion got = server.receiveCompletion(CompletionOpcode.RECV_WITH_IMMEDIATE);
        operations.add(new OperationRecord("RDMA Write with Immediate", "RFC 7306: an RDMA Write followed by an "
                + "Immediate Data message whose 8 octets arrive in a server receive completion",
                List.of("client.qp.postSend(" + WorkRequests.describe(wr, names) + ")"),
                List.of(WorkRequests.completion("client", "send", sent),
                WorkRequests.completion("server", "receive", got)),
                List.of(new Check(String.format("server memory at TO 0x%x holds the %d octets", to, payload.length),
                        equal(sink.buffer(), 1024, payload)),
                        new Check(String.format("the server's receive 102 carries immediate data 0x%016x",
                                IMMEDIATE_DATA),
                                got.wrId() == 102 && got.immediateData().equals(OptionalLong.of(IMMEDIATE_DATA)))),
                2));
    }

    private void fetchAdd() throws Exception {
        ByteBuffer word = atomicView(atomicWord, server);
        ByteBuffer results = atomicView(atomicResults, client);
        long before = word.getLong(0);
        SendWorkRequest wr = SendWorkRequest.AtomicFetchAdd.of(nextWrId++, atomicWord.remoteBuffer(), ATOMIC_ADD)
                .withResult(atomicResults.sge(0, 8));
        client.qp.postSend(wr);
        WorkCompletion wc = client.sendCompletion(CompletionOpcode.ATOMIC_FETCH_ADD);
        operations.add(new OperationRecord("Atomic FetchAdd", "RFC 7306: the server's RNIC adds " + ATOMIC_ADD
                + " to a 64-bit word atomically and returns the value it had",
                List.of("client.qp.postSend(" + WorkRequests.describe(wr, names) + ")"),
                List.of(WorkRequests.completion("client", "send", wc)),
                List.of(new Check("original value " + wc.atomicOriginalValue().orElseThrow() + " = " + before,
                        wc.atomicOriginalValue().orElseThrow() == before && before == ATOMIC_INITIAL),
                        new Check("the client's result buffer holds " + results.getLong(0),
                        results.getLong(0) == before),
                        new Check("the server's word is now " + word.getLong(0) + " = " + before + " + " + ATOMIC_ADD,
                                word.getLong(0) == before + ATOMIC_ADD)),
                2));
    }

    private void compareSwap() throws Exception {
        ByteBuffer word = atomicView(atomicWord, server);
        ByteBuffer results = atomicView(atomicResults, client);
        long before = word.getLong(0);
        SendWorkRequest wr = SendWorkRequest.AtomicCompareSwap.of(nextWrId++, atomicWord.remoteBuffer(),
                ATOMIC_INITIAL + ATOMIC_ADD, ATOMIC_SWAP).withResult(atomicResults.sge(8, 8));
        client.qp.postSend(wr);
        WorkCompletion wc = client.sendCompletion(CompletionOpcode.ATOMIC_CMP_SWAP);
        operations.add(new OperationRecord("Atomic CmpSwap", "RFC 7306: if the server's word equals "
                + (ATOMIC_INITIAL + ATOMIC_ADD) + " it becomes 0x" + Long.toHexString(ATOMIC_SWAP)
                + "; the original value comes back either way",
                List.of("client.qp.postSend(" + WorkRequests.describe(wr, names) + ")"),
                List.of(WorkRequests.completion("client", "send", wc)),
                List.of(new Check("original value " + wc.atomicOriginalValue().orElseThrow() + " = " + before,
                        wc.atomicOriginalValue().orElseThrow() == before && before == ATOMIC_INITIAL + ATOMIC_ADD),
                        new Check("the client's result buffer holds " + results.getLong(8),
                        results.getLong(8) == before),
                        new Check("the server's word is now 0x" + Long.toHexString(word.getLong(0)),
                                word.getLong(0) == ATOMIC_SWAP)),
                2));
    }

    /** Graceful disconnect (RFC 5040 §6.2.1) and the end of the capture. */
    void disconnect() {
        if (client.connection != null) {
            try {
                client.connection.disconnect().get(10, TimeUnit.SECONDS);
                if (server.connection != null) {
                    server.connection.closeFuture().get(10, TimeUnit.SECONDS);
                }
            } catch (Exception e) {
                // the capture may then end without the closing packets; the checks already ran
            }
        }
    }

    @Override
    public void close() {
        try {
            if (listener != null) {
                listener.close();
            }
        } finally {
            try {
                client.close();
            } finally {
                server.close();
            }
        }
    }

    /**
     * A region's 64-bit atomic words as its RNIC keeps them in memory (the host's order by default; RFC 7306 §5.2
     * puts the operands big-endian only on the wire).
     */
    private static ByteBuffer atomicView(MemoryRegion region, DemoSide side) {
        return region.buffer().order(side.rnic.query().atomicByteOrder());
    }

    /**
     * Polls {@code buffer} until it holds {@code expected} at {@code offset}, for up to 5 s: how a server learns that
     * an RDMA Write (which completes only at the requester) has been placed.
     */
    private static boolean arrives(ByteBuffer buffer, int offset, byte[] expected) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (true) {
            VarHandle.acquireFence(); // re-read memory the event loop writes
            if (equal(buffer, offset, expected)) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(1);
        }
    }

    private static boolean equal(ByteBuffer buffer, int offset, byte[] expected) {
        byte[] actual = new byte[expected.length];
        buffer.get(offset, actual);
        return Arrays.equals(actual, expected);
    }

    private static byte[] text(String phrase, int length) {
        byte[] out = new byte[length];
        byte[] p = phrase.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < length; i++) {
            out[i] = p[i % p.length];
        }
        return out;
    }

    private static void fill(ByteBuffer buffer, String phrase, int length) {
        buffer.put(0, text(phrase, length));
    }
}
