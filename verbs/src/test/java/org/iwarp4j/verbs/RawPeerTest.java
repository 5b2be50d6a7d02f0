package org.iwarp4j.verbs;

import org.assertj.core.api.Assertions;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.fpdu.Crc32c;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hand-written peer on a plain socket that speaks the wire format the way Linux siw does
 * (docs/protocol/siw-interop.md): MPA Rev 2 with the enhanced block, FPDUs built octet by octet. Checks what our
 * Responder puts on the wire: the Reply, the Terminate after a CRC error (siw-interop §F: LLP 0x2/0x0/0x02,
 * QN 2, MSN 1, then close), and the teardown after the peer's half-close (§A).
 */
class RawPeerTest {

    static Stream<Transport> transports() {
        return Peers.transports();
    }

    /** Our server side: one queue pair with two receives posted, accepting one connection. */
    private static final class Server implements AutoCloseable {
        final Rnic rnic;
        final Peers.Side side;
        final Mem recv;
        final Listener listener;
        final CompletableFuture<Connection> accepted = new CompletableFuture<>();
        final CompletableFuture<AsyncEvent> event = new CompletableFuture<>();

        Server(Transport t) throws Exception {
            rnic = Rnic.open(RnicConfig.builder().transport(t).eventLoopThreads(1).build());
            side = new Peers.Side(rnic, 16);
            side.qp = side.pd.createQueuePair(side.qpConfig().build());
            side.qp.onAsyncEvent(event::complete);
            recv = side.region(64, Access.LOCAL_WRITE);
            side.receive(1, recv.sge(0, 32));
            side.receive(2, recv.sge(32, 32));
            listener = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), ListenOptions.defaults(),
                    r -> r.accept(side.qp, AcceptOptions.defaults()).whenComplete((c, e) -> {
                        if (c != null) {
                            accepted.complete(c);
                        }
                    }));
        }

        @Override
        public void close() {
            rnic.close();
        }
    }

    /** A socket connected to {@code server} past the MPA startup. */
    private static Socket open(Server server) throws Exception {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), server.listener.localAddress().getPort());
        s.setSoTimeout(20_000);
        handshake(s);
        server.accepted.get(20, TimeUnit.SECONDS);
        return s;
    }

    /** Connects, sends a siw-style Request (Rev 2, enhanced, C=1, IRD=ORD=1) and reads the Reply. */
    private static void handshake(Socket s) throws Exception {
        MpaFrame request = MpaFrame.enhanced(MpaFrameType.REQUEST, false, true, false,
                EnhancedConnectionData.of(false, Set.<RtrType>of(), 1, 1), new byte[0]);
        s.getOutputStream().write(request.toByteArray());
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] header = in.readNBytes(20);
        int pdLength = (header[18] & 0xFF) << 8 | (header[19] & 0xFF);
        byte[] pd = in.readNBytes(pdLength);
        assertThat(new String(header, 0, 16, StandardCharsets.US_ASCII)).isEqualTo("MPA ID Rep Frame");
        assertThat(header[16] & 0x10).as("enhanced (S) set, siw-interop §B1").isEqualTo(0x10);
        assertThat(header[16] & 0x20).as("not rejected").isZero();
        assertThat(header[17]).as("Rev 2").isEqualTo((byte) 2);
        assertThat(pdLength).isEqualTo(4);
        assertThat(pd).hasSize(4);
    }

    /** One FPDU carrying a Send (QN 0, MSN {@code msn}) with {@code payload}; the CRC is spoiled on request. */
    private static byte[] sendFpdu(int msn, byte[] payload, boolean badCrc) {
        return sendFpdu(0, msn, payload, badCrc);
    }

    private static byte[] sendFpdu(int qn, int msn, byte[] payload, boolean badCrc) {
        int ulpdu = 18 + payload.length;
        int pad = (4 - (2 + ulpdu) % 4) % 4;
        ByteBuffer b = ByteBuffer.allocate(2 + ulpdu + pad + 4);
        b.putShort((short) ulpdu);
        b.put((byte) 0x41).put((byte) 0x43); // DDP untagged L=1 DV=1; RDMAP RV=1 Send (siw-interop §D)
        b.putInt(0).putInt(qn).putInt(msn).putInt(0);
        b.put(payload);
        b.put(new byte[pad]);
        int crc = (int) Crc32c.compute(Arrays.copyOf(b.array(), 2 + ulpdu + pad));
        b.order(ByteOrder.LITTLE_ENDIAN).putInt(badCrc ? ~crc : crc);
        return b.array();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void validSendFromAHandWrittenPeer(Transport t) throws Exception {
        try (Server server = new Server(t); Socket s = open(server)) {
            s.getOutputStream().write(sendFpdu(1, "from siw".getBytes(StandardCharsets.US_ASCII), false));
            WorkCompletion wc = Completions.one(server.side.recvCq);
            assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(wc.byteLength()).isEqualTo(8);
            assertThat(new String(server.recv.bytes(0, 8), StandardCharsets.US_ASCII))
                    .isEqualTo("from siw");
            // siw-interop §A: a half-close from the peer tears the whole connection down
            s.shutdownOutput();
            WorkCompletion flushed = Completions.one(server.side.recvCq);
            assertThat(flushed.wrId()).isEqualTo(2);
            assertThat(flushed.status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
            assertThat(s.getInputStream().read()).as("we closed too").isEqualTo(-1);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void crcErrorInTheFirstFpduClosesWithoutATerminate(Transport t) throws Exception {
        try (Server server = new Server(t); Socket s = open(server)) {
            s.getOutputStream().write(sendFpdu(1, new byte[] {1, 2, 3}, true));
            // RFC 5044 §7.1.2 rule 4: no FPDU (not even a Terminate) before one was validated; just the close
            assertThat(s.getInputStream().read()).isEqualTo(-1);
            List<WorkCompletion> wcs = Completions.await(server.side.recvCq, 2);
            // ... and the completions say so: the Terminate was withheld, not sent (issue 13)
            assertThat(wcs).extracting(WorkCompletion::status).containsOnly(CompletionStatus.TERMINATE_WITHHELD);
            assertThat(wcs.get(0).terminate().orElseThrow().errorCode()).isEqualTo(2);
            assertThat(wcs.get(0).terminate().orElseThrow().direction()).isEqualTo(TerminateInfo.Direction.WITHHELD);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void crcErrorIsAnsweredWithAnLlpTerminateThenClose(Transport t) throws Exception {
        try (Server server = new Server(t); Socket s = open(server)) {
            OutputStream out = s.getOutputStream();
            out.write(sendFpdu(1, new byte[] {9}, false));
            assertThat(Completions.one(server.side.recvCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            out.write(sendFpdu(2, new byte[] {1, 2, 3, 4, 5}, true));
            DataInputStream in = new DataInputStream(s.getInputStream());
            int ulpduLength = in.readUnsignedShort();
            byte[] ulpdu = in.readNBytes(ulpduLength);
            ByteBuffer u = ByteBuffer.wrap(ulpdu);
            assertThat(u.get(0)).as("DDP untagged, L, DV=1").isEqualTo((byte) 0x41);
            assertThat(u.get(1)).as("RDMAP RV=1 Terminate").isEqualTo((byte) 0x47);
            assertThat(u.getInt(6)).as("QN 2").isEqualTo(2);
            assertThat(u.getInt(10)).as("MSN 1").isEqualTo(1);
            assertThat(u.getInt(14)).as("MO 0").isZero();
            // RFC 5040 §4.8 control word: Layer 2 (LLP) / EType 0 / code 0x02 CRC error, no headers (M=D=R=0)
            assertThat(u.get(18)).isEqualTo((byte) 0x20);
            assertThat(u.get(19)).isEqualTo((byte) 0x02);
            assertThat(u.get(20) & 0xE0).isZero();
            int pad = (4 - (2 + ulpduLength) % 4) % 4;
            byte[] trailer = in.readNBytes(pad + 4);
            byte[] covered = ByteBuffer.allocate(2 + ulpduLength + pad).putShort((short) ulpduLength).put(ulpdu)
                    .put(trailer, 0, pad).array();
            int crc = ByteBuffer.wrap(trailer, pad, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
            assertThat(crc).as("our Terminate carries a valid CRC").isEqualTo((int) Crc32c.compute(covered));
            assertThat(in.read()).as("then we close").isEqualTo(-1);
            WorkCompletion wc = Completions.one(server.side.recvCq);
            assertThat(wc.status()).isEqualTo(CompletionStatus.TERMINATE_SENT);
            assertThat(wc.terminate().orElseThrow().layer()).isEqualTo(2);
            assertThat(wc.terminate().orElseThrow().errorCode()).isEqualTo(2);
            assertThat(server.event.get(20, TimeUnit.SECONDS).type()).isEqualTo(AsyncEvent.Type.TERMINATE_SENT);
        }
    }

    /**
     * After our Terminate the peer's FPDUs may still be on their way or unread in our socket. Closing then
     * would make our kernel answer them with RST, and a peer whose stack drops received data on RST could
     * lose the Terminate; we half-close instead (FIN right after the Terminate), keep reading and dropping
     * what arrives, and close once the peer closed its side or {@code TERMINATE_LINGER} (1 s) has passed
     * (interop/FINDINGS.md O1).
     */
    @ParameterizedTest
    @MethodSource("transports")
    void aTerminateIsFollowedByFinAndWhatFollowsIsDroppedForALinger(Transport t) throws Exception {
        try (Server server = new Server(t); Socket s = open(server)) {
            OutputStream out = s.getOutputStream();
            out.write(sendFpdu(5, 1, new byte[] {1}, false)); // RFC 5041 §7.2: QN 5 is no queue, 1/2/01
            DataInputStream in = new DataInputStream(s.getInputStream());
            int ulpduLength = in.readUnsignedShort();
            byte[] ulpdu = in.readNBytes(ulpduLength);
            assertThat(ulpdu[1]).as("RDMAP RV=1 Terminate").isEqualTo((byte) 0x47);
            assertThat(ulpdu[18]).as("Layer DDP, EType untagged buffer error").isEqualTo((byte) 0x12);
            assertThat(ulpdu[19]).as("code 0x01 invalid QN").isEqualTo((byte) 0x01);
            in.readNBytes((4 - (2 + ulpduLength) % 4) % 4 + 4);
            assertThat(in.read()).as("FIN after the Terminate").isEqualTo(-1);
            // FPDUs the peer sent before it saw our Terminate: still read (and dropped), so no RST answers them.
            // Had we closed, the first write would draw a RST and a later one would fail.
            byte[] late = sendFpdu(0, 2, new byte[1400], false);
            for (int i = 0; i < 3; i++) {
                out.write(late);
                Thread.sleep(50);
            }
            WorkCompletion wc = Completions.one(server.side.recvCq);
            assertThat(wc.status()).isEqualTo(CompletionStatus.TERMINATE_SENT);
            assertThat(wc.terminate().orElseThrow().errorCode()).isEqualTo(1);
            // a peer that never closes: we close after the linger, and then its writes draw a RST
            Thread.sleep(1500);
            Assertions.assertThatThrownBy(() -> {
                for (int i = 0; i < 20; i++) {
                    out.write(late);
                    Thread.sleep(50);
                }
            }).isInstanceOf(IOException.class);
        }
    }
}
