package org.iwarp4j.tools.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.regex.Pattern;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameType;

/**
 * A hostile or idle client of a persistent server, on a bare TCP socket: garbage, an MPA Request and then silence,
 * a reset. And the bounded waits on a server's output the persistent-server tests share.
 */
public final class RawMpaClient implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final Socket socket;

    private RawMpaClient(Socket socket) {
        this.socket = socket;
    }

    public static RawMpaClient connect(InetSocketAddress server) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", server.getPort()), 5000);
        s.setSoTimeout((int) WAIT.toMillis());
        return new RawMpaClient(s);
    }

    /** An MPA Request as rping's sends it: revision 2, CRC, IRD = ORD = 1, no private data (RFC 6581 §7). */
    public static byte[] mpaRequest() {
        return mpaRequest(new byte[0]);
    }

    /** The same Request carrying {@code privateData} after the enhanced block. */
    public static byte[] mpaRequest(byte[] privateData) {
        return MpaFrame.enhanced(MpaFrameType.REQUEST, false, true, false,
                EnhancedConnectionData.of(false, Set.of(), 1, 1), privateData).toByteArray();
    }

    /** The local port: the server names this client {@code [client N 127.0.0.1:PORT]}. */
    public int localPort() {
        return socket.getLocalPort();
    }

    public RawMpaClient send(byte[] octets) throws IOException {
        socket.getOutputStream().write(octets);
        socket.getOutputStream().flush();
        return this;
    }

    /** Sends the MPA Request and reads the Reply's 20-octet header and private data. */
    public byte[] requestAndReadReply() throws IOException {
        return requestAndReadReply(mpaRequest());
    }

    /** Sends {@code request} and reads the Reply's 20-octet header and private data. */
    public byte[] requestAndReadReply(byte[] request) throws IOException {
        send(request);
        byte[] header = readExactly(MpaFrame.HEADER_LENGTH);
        int pdLength = ((header[18] & 0xff) << 8) | (header[19] & 0xff);
        byte[] reply = Arrays.copyOf(header, MpaFrame.HEADER_LENGTH + pdLength);
        System.arraycopy(readExactly(pdLength), 0, reply, MpaFrame.HEADER_LENGTH, pdLength);
        return reply;
    }

    private byte[] readExactly(int n) throws IOException {
        byte[] b = socket.getInputStream().readNBytes(n);
        if (b.length != n) {
            throw new IOException("the server closed after " + b.length + " of " + n + " octets");
        }
        return b;
    }

    /** Reads until the server closes the connection (FIN or RST); false if it is still open after the wait. */
    public boolean closedByServer() throws IOException {
        InputStream in = socket.getInputStream();
        try {
            while (in.read() >= 0) {
                // whatever the server says before closing
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    /** Closes with a TCP RST (SO_LINGER 0) instead of a FIN. */
    public void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /**
     * Waits until the server's stdout and stderr together hold {@code count} lines matching {@code line}; fails
     * with everything it printed otherwise.
     */
    public static void awaitLines(BackgroundServer server, String line, int count) throws InterruptedException {
        Pattern p = Pattern.compile(line);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            long n = (server.out() + server.err()).lines().filter(l -> p.matcher(l).find()).count();
            if (n >= count) {
                return;
            }
            if (System.nanoTime() > deadline || server.isDone()) {
                throw new AssertionError("expected " + count + " lines matching " + line + ", found " + n + ":\n"
                        + server);
            }
            Thread.sleep(10);
        }
    }

    /** The server's lines of the client whose local port is {@code port}. */
    public static String clientLines(BackgroundServer server, int port) {
        String tag = " 127.0.0.1:" + port + "] ";
        StringBuilder b = new StringBuilder();
        (server.out() + server.err()).lines().filter(l -> l.contains(tag)).forEach(l -> b.append(l).append('\n'));
        return b.toString();
    }
}
