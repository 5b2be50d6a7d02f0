package org.iwarp4j.conformance.support;

import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.ConversationStream.Direction;
import org.iwarp4j.tools.pcap.Capture;
import org.iwarp4j.tools.pcap.HalfStream;
import org.iwarp4j.tools.pcap.PcapFormatException;
import org.iwarp4j.tools.pcap.TcpConnection;
import org.iwarp4j.oracle.StartupFrame;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Recorded conversations from pcap captures (e.g. Linux siw), as {@link ConversationStream}s the
 * {@link org.iwarp4j.testkit.peer.ScriptedPeer} can replay: the TCP connection is reassembled with the
 * {@code tools} module's reader, the Initiator is the side whose stream starts with the Request key, and
 * the segments of both directions are put in capture (frame) order, which is causal.
 */
public final class CaptureStreams {

    private CaptureStreams() {}

    /** A file of the repository's {@code samples/} folder. */
    public static byte[] sample(String name) {
        Path p = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize().getParent()
                .resolve("samples").resolve(name);
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every complete TCP connection of the capture that carries an MPA startup, as a conversation. */
    public static List<ConversationStream> conversations(String name, byte[] pcap) {
        Capture capture;
        try {
            capture = Capture.read(pcap);
        } catch (PcapFormatException e) {
            throw new IllegalArgumentException(name + " is not a readable pcap", e);
        }
        List<ConversationStream> out = new ArrayList<>();
        int n = 0;
        for (TcpConnection c : capture.connections()) {
            n++;
            HalfStream a = c.first();
            HalfStream b = c.second();
            HalfStream i2r =
                    startsWith(a, StartupFrame.REQUEST_KEY) ? a : startsWith(b, StartupFrame.REQUEST_KEY) ? b : null;
            if (i2r == null || i2r.gap() != null || (i2r == a ? b : a).gap() != null) {
                continue;
            }
            HalfStream r2i = i2r == a ? b : a;
            record Piece(Direction d, HalfStream s, HalfStream.Piece p) {}
            List<Piece> pieces = new ArrayList<>();
            i2r.pieces().forEach(p -> pieces.add(new Piece(Direction.I2R, i2r, p)));
            r2i.pieces().forEach(p -> pieces.add(new Piece(Direction.R2I, r2i, p)));
            pieces.sort(Comparator.comparingInt((Piece p) -> p.p().frame()).thenComparingLong(p -> p.p().offset()));
            List<ConversationStream.Segment> segments = new ArrayList<>();
            for (Piece p : pieces) {
                int from = (int) p.p().offset();
                byte[] octets = Arrays.copyOfRange(p.s().bytes(), from, from + p.p().length());
                segments.add(new ConversationStream.Segment(p.d(), from, p.s().sequenceAt(from), octets));
            }
            out.add(new ConversationStream(name + "#" + n, "TCP connection " + n + " of " + name,
                    List.copyOf(segments)));
        }
        return out;
    }

    private static boolean startsWith(HalfStream s, byte[] prefix) {
        byte[] b = s.bytes();
        return b.length >= prefix.length && Arrays.equals(Arrays.copyOf(b, prefix.length), prefix);
    }
}
