package org.iwarp4j.tools.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.FpduStreamDecoder;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.Segment;
import org.iwarp4j.oracle.SegmentView;
import org.iwarp4j.oracle.StartupFrame;

/**
 * A deliberately broken iWARP Responder for the tool's own tests: it accepts every MPA Request properly, then
 * answers the first FPDU as {@link Behaviour} says — with siw's bit-mirrored Terminate, with stale Read data, or
 * not at all.
 */
final class BrokenPeer implements AutoCloseable {

    enum Behaviour {
        /** A Terminate for an invalid STag in the mirrored layout, the payload length as segment length, FIN. */
        MIRRORED_TERMINATE,
        /** Nothing: the connection stays open and silent. */
        SILENT,
        /** Zero-length RDMA Writes, as fast as TCP takes them, until the tool goes away. */
        FLOOD,
        /** Every Read Request answered with a Read Response of 16 octets, whatever size it asked for (siw, C11). */
        STALE_READ_DATA
    }

    private final ServerSocket server;
    private final Thread thread;
    private final Behaviour behaviour;

    BrokenPeer(Behaviour behaviour) throws IOException {
        this.behaviour = behaviour;
        server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        thread = new Thread(this::serve, "broken-peer");
        thread.setDaemon(true);
        thread.start();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    String target() {
        return "127.0.0.1:" + address().getPort();
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                handle(s);
            } catch (IOException e) {
                // the test closed us, or the tool went away: next connection
            }
        }
    }

    private void handle(Socket s) throws IOException {
        s.setSoTimeout(10_000);
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream();
        byte[] header = in.readNBytes(StartupFrame.HEADER_LENGTH);
        if (header.length < StartupFrame.HEADER_LENGTH) {
            return;
        }
        int pd = (header[18] & 0xFF) << 8 | (header[19] & 0xFF);
        byte[] frame = Arrays.copyOf(header, header.length + pd);
        System.arraycopy(in.readNBytes(pd), 0, frame, header.length, pd);
        StartupFrame request = StartupFrame.parse(frame);
        out.write(StartupFrame.reply().revision(2).crc(request.crc())
                .enhanced(new StartupFrame.Enhanced(false, false, 1, false, false, 1)).toBytes());
        out.flush();
        FpduStreamDecoder rx = new FpduStreamDecoder(new FpduFraming(request.crc(), false, 0));
        FpduFraming tx = new FpduFraming(request.crc(), false, 0);
        if (behaviour == Behaviour.FLOOD) {
            byte[] burst = new byte[0];
            for (int i = 0; i < 4096; i++) {
                byte[] f = tx.encode(Segment.tagged(Segment.WRITE, 1, 0).toBytes());
                byte[] b = Arrays.copyOf(burst, burst.length + f.length);
                System.arraycopy(f, 0, b, burst.length, f.length);
                burst = b;
            }
            while (true) {
                out.write(burst); // ends with an IOException when the tool closes the connection
            }
        }
        byte[] buf = new byte[4096];
        while (true) {
            int n = in.read(buf);
            if (n < 0) {
                return;
            }
            for (DecodedFpdu f : rx.feed(Arrays.copyOf(buf, n))) {
                if (behaviour == Behaviour.SILENT) {
                    continue;
                }
                SegmentView v = SegmentView.parse(f.ulpdu());
                if (behaviour == Behaviour.STALE_READ_DATA) {
                    if (v.readRequest() != null) {
                        byte[] stale = new byte[16];
                        Arrays.fill(stale, (byte) 0xab);
                        out.write(tx.encode(Segment.tagged(Segment.READ_RESPONSE, v.readRequest().sinkStag(),
                                v.readRequest().sinkTo()).payload(stale).toBytes()));
                        out.flush();
                    }
                    continue;
                }
                int headerLength = v.headerLength();
                byte[] body = new byte[4 + 2 + headerLength];
                body[0] = 0x11; // mirrored: EType 1 << 4 | Layer 1
                body[2] = 0x03; // mirrored: M and D in the low bits
                int payload = f.ulpdu().length - headerLength;
                body[4] = (byte) (payload >> 8);
                body[5] = (byte) payload;
                System.arraycopy(f.ulpdu(), 0, body, 6, headerLength);
                byte[] terminate = Segment.terminate(0, 0, 0, false, false, false, new byte[0]).payload(body)
                        .toBytes();
                out.write(tx.encode(terminate));
                out.flush();
                s.shutdownOutput();
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
