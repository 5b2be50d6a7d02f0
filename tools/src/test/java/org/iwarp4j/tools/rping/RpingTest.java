package org.iwarp4j.tools.rping;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code iwarp rping -c} against {@code iwarp rping -s} in this JVM, and rping's usage rules. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RpingTest {

    @TempDir
    Path dir;

    /** What rping -v prints for ping {@code n} of size {@code size}, computed as rping.c computes it. */
    static String pingLine(String prefix, long n, int size) {
        StringBuilder b = new StringBuilder();
        String header = "rdma-ping-" + n + ": ";
        b.append(header, 0, Math.min(header.length(), size - 1));
        int c = 65 + (int) (n % 58);
        for (int i = header.length(); i < size - 1; i++) {
            b.append((char) c);
            c = c == 122 ? 65 : c + 1;
        }
        return prefix + b;
    }

    private record Pair(ToolRun server, ToolRun client) {}

    private Pair pair(List<String> serverArgs, List<String> clientArgs) throws Exception {
        int port = ToolRun.freePort();
        List<String> s = new ArrayList<>(List.of("rping", "-s", "-a", "127.0.0.1", "-p", Integer.toString(port)));
        s.addAll(serverArgs);
        CompletableFuture<ToolRun> server = ToolRun.background(s.toArray(String[]::new));
        ToolRun.awaitListening(port, server);
        List<String> c = new ArrayList<>(List.of("rping", "-c", "-a", "127.0.0.1", "-p", Integer.toString(port)));
        c.addAll(clientArgs);
        ToolRun client = ToolRun.run(c.toArray(String[]::new));
        return new Pair(server.get(60, TimeUnit.SECONDS), client);
    }

    @Test
    void aThousandValidatedPings() throws Exception {
        Pair p = pair(List.of(), List.of("-C", "1000", "-V"));
        assertThat(p.client().exit()).as(p.client().toString()).isZero();
        assertThat(p.client().out()).isEmpty(); // no -v: rping prints nothing
        assertThat(p.server().exit()).as(p.server().toString()).isZero();
        // rping's server ends with these two lines when the client disconnects, and still succeeds (siw-interop §H).
        assertThat(p.server().err()).contains("server DISCONNECT EVENT...").contains("wait for RDMA_READ_ADV state 10");
    }

    @ParameterizedTest
    @ValueSource(ints = {26, 64, 65535})
    void verbosePingDataIsRpingsPattern(int size) throws Exception {
        int count = size == 65535 ? 20 : 100;
        Pair p = pair(List.of("-S", Integer.toString(size), "-v"), List.of("-S", Integer.toString(size), "-C",
                Integer.toString(count), "-V", "-v"));
        assertThat(p.client().exit()).as(p.client().toString()).isZero();
        assertThat(p.server().exit()).as(p.server().toString()).isZero();
        List<String> expectedClient = new ArrayList<>();
        List<String> expectedServer = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            expectedClient.add(pingLine("ping data: ", n, size));
            expectedServer.add(pingLine("server ping data: ", n, size));
        }
        assertThat(p.client().out().lines()).containsExactlyElementsOf(expectedClient);
        assertThat(p.server().out().lines()).containsExactlyElementsOf(expectedServer);
    }

    @Test
    void theFirstLinesAreRealRpingOutput() {
        // As printed by rdma-core's rping -c -v -S 64 (and -S 26) against Linux siw.
        assertThat(pingLine("ping data: ", 0, 64))
                .isEqualTo("ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr");
        assertThat(pingLine("ping data: ", 1, 64))
                .isEqualTo("ping data: rdma-ping-1: BCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrs");
        assertThat(pingLine("ping data: ", 0, 26)).isEqualTo("ping data: rdma-ping-0: ABCDEFGHIJKL");
    }

    /**
     * Our client and server exchange the same MPA frames and the same RDMAP messages, octet for octet in the
     * ping data, as Linux siw's rping client and server did in a capture (siw kernel 6.1, rping -C, CRC off).
     */
    @Test
    void theExchangeMatchesSiwsRpingCapture() throws Exception {
        List<Map<String, Object>> siw = ToolRun.explain(writeResource("rping-siw-guest-local.pcap"));
        long pings = siw.stream().filter(e -> "RDMA_READ_REQUEST".equals(message(e))).count();
        assertThat(pings).isGreaterThan(0);
        Path serverPcap = dir.resolve("server.pcap");
        Path clientPcap = dir.resolve("client.pcap");
        Pair p = pair(List.of("--crc", "off", "--pcap", serverPcap.toString()),
                List.of("-C", Long.toString(pings), "-V", "--crc", "off", "--pcap", clientPcap.toString()));
        assertThat(p.client().exit()).as(p.client().toString()).isZero();
        assertThat(p.server().exit()).as(p.server().toString()).isZero();
        for (Path ours : List.of(clientPcap, serverPcap)) {
            List<Map<String, Object>> mine = ToolRun.explain(ours);
            assertThat(shape(mine)).as(ours.getFileName().toString()).containsExactlyElementsOf(shape(siw));
            assertThat(pingData(mine)).as(ours.getFileName().toString()).containsExactlyElementsOf(pingData(siw));
        }
    }

    /**
     * The adverts are rping's {@code struct rping_rdma_info} (be64 buf, be32 rkey, be32 size): the client's first Send
     * carries, octet for octet, the source buffer its {@code -d} line names.
     */
    @Test
    void theAdvertIsRpingsRdmaInfo() throws Exception {
        Path clientPcap = dir.resolve("advert.pcap");
        Pair p = pair(List.of(), List.of("-C", "1", "-S", "64", "-d", "--pcap", clientPcap.toString()));
        assertThat(p.client().exit()).as(p.client().toString()).isZero();
        String line = p.client().out().lines().filter(l -> l.startsWith("RDMA addr ")).findFirst().orElseThrow();
        String[] f = line.split(" "); // RDMA addr ADDR rkey RKEY len LEN
        String expected = String.format("%016x%08x%08x", Long.parseUnsignedLong(f[2], 16),
                Integer.parseUnsignedInt(f[4], 16), Integer.parseInt(f[6]));
        Map<String, Object> firstSend = ToolRun.explain(clientPcap).stream()
                .filter(e -> "SEND".equals(message(e)) && "I2R".equals(e.get("direction"))).findFirst().orElseThrow();
        assertThat(((String) firstSend.get("ulpdu")).substring(2 * 18)).isEqualTo(expected); // after the DDP header
        assertThat(f[6]).isEqualTo("64");
    }

    /** rping's two {@code -d} lines of an advert: the client's "RDMA addr" as sent, the server's "Received rkey". */
    @Test
    void theServerNamesTheAdvertsTheClientSent() throws Exception {
        Pair p = pair(List.of("-d"), List.of("-C", "1", "-S", "64", "-d"));
        assertThat(p.client().exit()).as(p.client().toString()).isZero();
        List<String> sent = p.client().out().lines().filter(l -> l.startsWith("RDMA addr ")).map(l -> {
            String[] f = l.split(" "); // RDMA addr ADDR rkey RKEY len LEN
            return "Received rkey " + f[4] + " addr " + f[2] + " len " + f[6] + " from peer";
        }).toList();
        assertThat(sent).as("source and sink").hasSize(2);
        assertThat(p.server().out().lines().filter(l -> l.startsWith("Received rkey ")))
                .containsExactlyElementsOf(sent);
    }

    @Test
    void differentSizesFailTheClient() throws Exception {
        Pair p = pair(List.of("-S", "64"), List.of("-S", "128", "-C", "1"));
        assertThat(p.server().exit()).isEqualTo(1);
        assertThat(p.server().err()).contains("more than this server's -S 64");
        assertThat(p.client().exit()).isEqualTo(1);
        assertThat(p.client().err()).contains("rping client failed");
    }

    @Test
    void noServerIsAConnectionFailure() {
        ToolRun r =
                ToolRun.run("rping", "-c", "-a", "127.0.0.1", "-p", Integer.toString(ToolRun.freePort()), "-C", "1");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("connect error");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-S 25", "-S 65536", "-C -1", "", "-s -c", "-x", "-p 70000", "-S abc", "--crc maybe"})
    void usageErrorsExitWith2(String args) {
        List<String> a = new ArrayList<>(List.of("rping"));
        if (!args.isEmpty()) {
            a.addAll(List.of(args.split(" ")));
        }
        if (!args.contains("-s") && !args.isEmpty()) {
            a.add("-s");
        }
        ToolRun r = ToolRun.run(a.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("Usage: iwarp rping");
    }

    @Test
    void theClientNeedsAnAddressAndTheSizeRangeIsRpings() {
        ToolRun r = ToolRun.run("rping", "-c");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("-a ADDR");
        ToolRun s = ToolRun.run("rping", "-s", "-S", "25");
        assertThat(s.err()).contains("Invalid size 25 (valid range is 26 to 65535)");
    }

    @Test
    void helpDescribesEveryOption() {
        ToolRun r = ToolRun.run("rping", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("-s", "-c", "-a=ADDR", "-p=PORT", "-C=COUNT", "-S=SIZE", "-v", "-V", "-d",
                "--pcap=FILE", "--crc=on|off", "--markers", "default 7174");
    }

    // ------------------------------------------------------------------ capture comparison

    private Path writeResource(String name) throws Exception {
        Path f = dir.resolve(name);
        try (var in = RpingTest.class.getResourceAsStream("/org/iwarp4j/tools/explain/siw/" + name)) {
            Files.write(f, in.readAllBytes());
        }
        return f;
    }

    @SuppressWarnings("unchecked")
    private static String message(Map<String, Object> e) {
        Object rdmap = e.get("rdmap");
        return rdmap == null ? null : (String) ((Map<String, Object>) rdmap).get("opcode");
    }

    /**
     * Each frame as direction, type, MPA fields / ULPDU length, RDMAP message, read size (addresses and STags differ).
     */
    @SuppressWarnings("unchecked")
    private static List<String> shape(List<Map<String, Object>> entries) {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> e : entries) {
            String type = (String) e.get("type");
            if (type.startsWith("mpa-")) {
                out.add(e.get("direction") + " " + type + " rev=" + e.get("rev") + " m=" + e.get("m")
                        + " c=" + e.get("c") + " s=" + e.get("s") + " pd=" + e.get("pdLength")
                        + " ird=" + e.get("ird") + " ord=" + e.get("ord")
                        + " p2p=" + e.get("peerToPeer") + " data=" + e.get("privateData"));
            } else if (type.equals("fpdu")) {
                Map<String, Object> ddp = (Map<String, Object>) e.get("ddp");
                Map<String, Object> rdmap = (Map<String, Object>) e.get("rdmap");
                Map<String, Object> readRequest = (Map<String, Object>) rdmap.get("readRequest");
                out.add(e.get("direction") + " fpdu " + e.get("ulpduLength") + " " + rdmap.get("opcode") + " qn="
                        + ddp.get("qn") + " msn=" + ddp.get("msn") + " size="
                        + (readRequest == null ? null : readRequest.get("size"))
                        + " payload=" + rdmap.get("payloadLength"));
            }
        }
        return out;
    }

    /**
     * The payload octets of every Read Response and Write (the ping data) and of every Send (adverts differ: lengths
     * only).
     */
    @SuppressWarnings("unchecked")
    private static List<String> pingData(List<Map<String, Object>> entries) {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> e : entries) {
            String m = message(e);
            if ("RDMA_READ_RESPONSE".equals(m) || "RDMA_WRITE".equals(m)) {
                out.add(((String) e.get("ulpdu")).substring(2 * 14)); // after the 14-octet tagged DDP header
            } else if ("SEND".equals(m) && "R2I".equals(e.get("direction"))) {
                out.add(((String) e.get("ulpdu")).substring(2 * 18)); // the server's go-ahead: 16 zero octets
            }
        }
        return out;
    }
}
