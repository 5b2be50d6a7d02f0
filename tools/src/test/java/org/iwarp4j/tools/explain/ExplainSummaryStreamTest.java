package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.tools.pcap.Capture;
import org.iwarp4j.tools.pcap.Endpoint;
import org.iwarp4j.tools.pcap.PcapBuilder;
import org.iwarp4j.tools.pcap.PcapFormatException;
import org.iwarp4j.tools.pcap.TcpSegment;
import org.junit.jupiter.api.Test;

/**
 * {@code explain --pcap FILE --summary} decodes each connection entry by entry ({@link ConnectionExplainer.Stream})
 * and keeps none of them: a few FPDUs are decoded ahead of the one summed up, however long the connection, and the
 * objects are those {@link ConnectionSummary#of(Explanation)} builds from the whole explanation.
 */
class ExplainSummaryStreamTest {

    private static final Endpoint CLIENT = new Endpoint(new byte[] {10, 1, 1, 1}, 40000);
    private static final Endpoint SERVER = new Endpoint(new byte[] {10, 1, 1, 2}, 7174);
    private static final long ISN_C = 0xfffff000L; // wraps inside the conversation
    private static final long ISN_S = 0x20000000L;
    private static final int SEGMENTS = 400;
    private static final int FPDUS_PER_SEGMENT = 10;

    private final byte[] request = GoldenVectors.named("mpa-req-rev1").bytes();          // C=1 M=0
    private final byte[] reply = GoldenVectors.named("mpa-rep-rev1-accept").bytes();     // C=1 M=0
    private final byte[] send = GoldenVectors.named("fpdu-send").bytes();                 // CRC valid
    private final byte[] write = GoldenVectors.named("fpdu-rdma-write").bytes();          // CRC valid

    @Test
    void aLongConnectionIsDecodedAFewFpdusAheadOfTheSummary() throws PcapFormatException {
        Capture capture = Capture.read(conversation(false).build());
        int total = SEGMENTS * FPDUS_PER_SEGMENT + SEGMENTS / 2;
        ConnectionExplainer.Stream stream =
                ConnectionExplainer.open(1, capture.connections().get(0), TerminateLayout.RFC, false);
        assertThat(stream.dissected()).as("opening decodes one FPDU of each direction at most").isLessThanOrEqualTo(2);
        int seen = 0;
        int maxAhead = 0;
        for (Entry e = stream.next(); e != null; e = stream.next()) {
            if (e.kind() == Entry.Kind.FPDU) {
                seen++;
                // The entry handed out, and at most the next FPDU of each direction: not the connection's all.
                maxAhead = Math.max(maxAhead, stream.dissected() - seen);
                assertThat(stream.dissected()).as("FPDUs dissected when FPDU " + seen + " is handed out")
                        .isLessThanOrEqualTo(seen + 2);
            }
        }
        assertThat(seen).isEqualTo(total);
        assertThat(stream.dissected()).isEqualTo(total);
        assertThat(maxAhead).isBetween(0, 2);
        assertThat(stream.errors()).isZero();
    }

    @Test
    void theStreamedSummaryIsTheSummaryOfTheWholeExplanation() throws IOException, PcapFormatException {
        List<Path> pcaps = new ArrayList<>();
        Path lab = ExplainSiwLabTest.lab();
        for (Path dir : List.of(lab.resolve("../../../../../interop/captures").normalize(), lab.resolve("pcap"))) {
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(f -> f.toString().endsWith(".pcap")).sorted().forEach(pcaps::add);
            }
        }
        assertThat(pcaps).hasSizeGreaterThan(20);
        List<byte[]> captures = new ArrayList<>();
        for (Path p : pcaps) {
            captures.add(Files.readAllBytes(p));
        }
        for (String golden : List.of("iwarp-rev1-crc.pcap", "iwarp-rev2-enhanced.pcap", "iwarp-markers.pcap")) {
            captures.add(GoldenVectors.resource(golden));
        }
        captures.add(conversation(false).build());
        captures.add(conversation(true).build());
        for (int i = 0; i < captures.size(); i++) {
            String name = i < pcaps.size() ? pcaps.get(i).toString() : "capture " + i;
            Capture capture = Capture.read(captures.get(i));
            Explanation whole = Explainer.explainCapture(capture, name);
            StringWriter text = new StringWriter();
            int errors = ConnectionSummary.write(Capture.read(captures.get(i)), TerminateLayout.RFC,
                    new PrintWriter(text, true));
            assertThat(text.toString()).as(name).isEqualTo(ConnectionSummary.render(whole));
            assertThat(errors).as(name).isEqualTo(whole.errors());
        }
    }

    /**
     * A connection of many FPDUs both ways; with {@code problems} a CRC error, a retransmission with other octets,
     * a marker-less stream cut by a hole, and an FPDU cut short at the end of the other direction.
     */
    private PcapBuilder conversation(boolean problems) {
        PcapBuilder p = PcapBuilder.ethernet()
                .tcp(CLIENT, SERVER, ISN_C, TcpSegment.SYN, new byte[0])
                .tcp(SERVER, CLIENT, ISN_S, TcpSegment.SYN | TcpSegment.ACK, new byte[0])
                .tcp(CLIENT, SERVER, ISN_C + 1, TcpSegment.ACK, new byte[0]);
        p.tcp(CLIENT, SERVER, ISN_C + 1, TcpSegment.ACK, request);
        p.tcp(SERVER, CLIENT, ISN_S + 1, TcpSegment.ACK, reply);
        long c = ISN_C + 1 + request.length;
        long s = ISN_S + 1 + reply.length;
        byte[] badCrc = send.clone();
        badCrc[badCrc.length - 1] ^= 1;
        for (int i = 0; i < SEGMENTS; i++) {
            byte[] segment = new byte[0];
            for (int k = 0; k < FPDUS_PER_SEGMENT; k++) {
                segment = ExplainErrorTest.concat(segment,
                        problems && i == 7 && k == 3 ? badCrc : (i + k) % 2 == 0 ? send : write);
            }
            if (problems && i == SEGMENTS - 5) {
                c += segment.length; // never captured: the stream ends at a hole
                continue;
            }
            p.tcp(CLIENT, SERVER, c, TcpSegment.ACK, segment);
            if (problems && i == 11) {
                byte[] changed = segment.clone();
                changed[30] ^= 1;
                p.tcp(CLIENT, SERVER, c, TcpSegment.ACK, changed);
            }
            c += segment.length;
            if (i % 2 == 0) {
                byte[] answer = problems && i == SEGMENTS - 2 ? Arrays.copyOf(send, send.length - 5) : send;
                p.tcp(SERVER, CLIENT, s, TcpSegment.ACK, answer);
                s += answer.length;
            }
        }
        p.tcp(CLIENT, SERVER, c, TcpSegment.ACK | TcpSegment.FIN, new byte[0]);
        return p;
    }
}
