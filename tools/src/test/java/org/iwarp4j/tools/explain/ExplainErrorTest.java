package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.assertj.core.groups.Tuple;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invalid octets give an error entry (layer MPA, the RFC 5044 §8 code, where it was found) and exit
 * status 1. Inputs are golden vectors damaged on purpose.
 */
class ExplainErrorTest {

    private static final int INVALID_STARTUP_FRAME = 0x04;
    private static final int CRC_ERROR = 0x02;
    private static final int MARKER_MISMATCH = 0x03;
    private static final int CONNECTION_LOST = 0x01;

    @TempDir
    Path dir;

    @Test
    void aBadKeyIsAnInvalidStartupFrameAtTheOffendingOctet() {
        byte[] frame = GoldenVectors.named("mpa-req-rev1").bytes();
        frame[0] = 'X';
        assertSingleError(ExplainRun.json(dir, frame), 0, INVALID_STARTUP_FRAME, "key octet 0");

        byte[] other = GoldenVectors.named("mpa-rep-rev1-accept").bytes();
        other[9] = 'x'; // neither 'q' (Request) nor 'p' (Reply)
        assertSingleError(ExplainRun.json(dir, other), 9, INVALID_STARTUP_FRAME, "key octet 9");
    }

    @Test
    void privateDataLongerThan512IsInvalid() {
        // RFC 5044 §7.1.1: PD_Length at most 512; decided from the header, whether or not the octets follow.
        byte[] header = Arrays.copyOf(GoldenVectors.named("mpa-req-rev1").bytes(), 20);
        header[18] = 0x02;
        header[19] = 0x01; // 513
        assertSingleError(ExplainRun.json(dir, header), 18, INVALID_STARTUP_FRAME, "513");
        assertSingleError(ExplainRun.json(dir, Arrays.copyOf(header, 20 + 513)), 18, INVALID_STARTUP_FRAME, "513");
    }

    @Test
    void unsupportedRevisionsAreInvalid() {
        for (int rev : new int[] {0, 3}) {
            byte[] frame = GoldenVectors.named("mpa-req-rev1").bytes();
            frame[17] = (byte) rev;
            assertSingleError(ExplainRun.json(dir, frame), 17, INVALID_STARTUP_FRAME, "");
        }
    }

    @Test
    void garbageIsNotAnMpaFrame() {
        byte[] http = "GET / HTTP/1.1\r\nHost: example\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        assertSingleError(ExplainRun.json(dir, http), 0, INVALID_STARTUP_FRAME, "key octet 0");
        // An FPDU given without --fpdu: people get a hint.
        assertThat(ExplainRun.text(dir, GoldenVectors.named("fpdu-send").bytes()).out())
                .contains("Octets that start at an FPDU need --fpdu.");
    }

    @Test
    void aFrameCutShortIsAConnectionLostAtTheEnd() {
        byte[] frame = Arrays.copyOf(GoldenVectors.named("mpa-req-rev1-markers").bytes(), 12);
        assertSingleError(ExplainRun.json(dir, frame), 12, CONNECTION_LOST, "12 of the 20 header octets");
    }

    @Test
    void aFlippedBitFailsTheCrc() {
        byte[] fpdu = GoldenVectors.named("fpdu-send").bytes();
        fpdu[10] ^= 0x04;
        ExplainRun r = ExplainRun.json(dir, fpdu, "--fpdu");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        List<Map<String, Object>> e = r.entries();
        assertThat(e).hasSize(2);
        assertThat(e.get(0)).containsEntry("type", "fpdu").containsEntry("crcValid", false)
                .containsEntry("crc", String.format("0x%08x", GoldenVectors.named("fpdu-send").number("crc32c_value")));
        assertError(e.get(1), 0, CRC_ERROR, "");

        // People see the CRC the octets actually have, computed here independently.
        CRC32C crc = new CRC32C();
        crc.update(fpdu, 0, fpdu.length - 4);
        ExplainRun text = ExplainRun.text(dir, fpdu, "--fpdu");
        assertThat(text.out()).contains(String.format("INVALID (expected 0x%08x over the %d octets before it)",
                crc.getValue(), fpdu.length - 4)).contains("ERROR  MPA 0x02 MPA CRC error  at input offset 0")
                .endsWith("1 frame (1 FPDU), 1 error.\n");
        assertThat(text.exit()).isEqualTo(1);
    }

    @Test
    void aFlippedBitInTheCrcFieldItselfFailsTooButNotWithCrcOff() {
        byte[] fpdu = GoldenVectors.named("fpdu-rdma-write").bytes();
        fpdu[fpdu.length - 1] ^= (byte) 0x80;
        ExplainRun on = ExplainRun.json(dir, fpdu, "--fpdu", "--crc");
        assertThat(on.exit()).isEqualTo(1);
        assertError(on.entries().get(1), 0, CRC_ERROR, "");
        ExplainRun off = ExplainRun.json(dir, fpdu, "--fpdu", "--no-crc");
        assertThat(off.exit()).isZero();
        assertThat(off.entries()).singleElement().satisfies(x -> assertThat(x).containsEntry("crcValid", null));
    }

    @Test
    void afterABadFpduTheNextOnesAreShownButMarkedUndelivered() {
        byte[] bad = GoldenVectors.named("fpdu-send").bytes();
        bad[20] ^= 1;
        byte[] good = GoldenVectors.named("fpdu-rdma-write").bytes();
        byte[] both = concat(bad, good);
        ExplainRun r = ExplainRun.json(dir, both, "--fpdu");
        assertThat(r.entries()).extracting(x -> x.get("type"), x -> x.get("offset"))
                .containsExactly(Tuple.tuple("fpdu", 0L), Tuple.tuple("error", 0L),
                        Tuple.tuple("fpdu", (long) bad.length));
        assertThat(r.entries().get(2)).containsEntry("crcValid", true);
        assertThat(ExplainRun.text(dir, both, "--fpdu").out()).contains("Not delivered: it follows an MPA error");
    }

    @Test
    void anFpduAfterTheRequestIsCheckedWithTheRequestsCrcSetting() {
        byte[] request = GoldenVectors.named("mpa-req-rev1").bytes(); // C=1
        byte[] fpdu = GoldenVectors.named("fpdu-send").bytes();
        fpdu[30] ^= 0x10;
        ExplainRun r = ExplainRun.json(dir, concat(request, fpdu));
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.entries()).extracting(x -> x.get("type")).containsExactly("mpa-request", "fpdu", "error");
        assertError(r.entries().get(2), request.length, CRC_ERROR, "");
    }

    @Test
    void aTruncatedFpduIsAConnectionLostWhereItStarts() {
        byte[] fpdu = GoldenVectors.named("fpdu-send").bytes();
        assertSingleError(ExplainRun.json(dir, Arrays.copyOf(fpdu, fpdu.length - 3), "--fpdu"), 0, CONNECTION_LOST,
                "input ends inside an FPDU");
        assertSingleError(ExplainRun.json(dir, new byte[] {0x00}, "--fpdu"), 0, CONNECTION_LOST,
                "input ends inside an FPDU");
        byte[] request = GoldenVectors.named("mpa-req-rev1").bytes();
        ExplainRun r = ExplainRun.json(dir, concat(request, Arrays.copyOf(fpdu, 20)));
        assertThat(r.entries()).extracting(x -> x.get("type")).containsExactly("mpa-request", "error");
        assertError(r.entries().get(1), request.length, CONNECTION_LOST, "");
    }

    @Test
    void aWrongFpduptrIsAMarkerMismatchWhenTheCrcDoesNotCatchItFirst() {
        byte[] fpdu = GoldenVectors.named("mstream-i-02-rfc-fig6").bytes();
        fpdu[20 + 3] = 0x18; // FPDUPTR 20 -> 24
        ExplainRun off = ExplainRun.json(dir, fpdu, "--fpdu", "--no-crc", "--markers", "--stream-offset", "492");
        assertThat(off.exit()).isEqualTo(1);
        assertThat(off.entries().get(0).get("markers")).isEqualTo(List.of(Map.of("offset", 20L, "fpduPtr", 24L)));
        assertError(off.entries().get(1), 20, MARKER_MISMATCH, "");
        // RFC 5044 §4.4: the marker is covered by the CRC, so with CRCs on the CRC fails first.
        ExplainRun on = ExplainRun.json(dir, fpdu, "--fpdu", "--markers", "--stream-offset", "492");
        assertError(on.entries().get(1), 0, CRC_ERROR, "");
    }

    @Test
    void aRejectingReplyEndsMpaSoTrailingOctetsAreNotDecoded() {
        byte[] reject = GoldenVectors.named("mpa-rep-rev1-reject").bytes();
        ExplainRun r = ExplainRun.json(dir, concat(reject, GoldenVectors.named("fpdu-send").bytes()));
        assertThat(r.exit()).isZero();
        assertThat(r.entries()).singleElement()
                .satisfies(x -> assertThat(x).containsEntry("type", "mpa-reply").containsEntry("r", true));
        assertThat(ExplainRun.text(dir, concat(reject, new byte[8])).out())
                .contains("the 8 octets after the frame are not MPA and not decoded");
    }

    static void assertSingleError(ExplainRun r, long offset, int code, String messagePart) {
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.entries()).as(r.toString()).hasSize(1);
        assertError(r.entries().get(0), offset, code, messagePart);
    }

    static void assertError(Map<String, Object> e, long offset, int code, String messagePart) {
        assertThat(e).as(e.toString()).containsEntry("type", "error").containsEntry("layer", "MPA")
                .containsEntry("offset", offset).containsEntry("code", (long) code);
        assertThat((String) e.get("message")).contains(messagePart);
    }

    static byte[] concat(byte[]... parts) {
        ByteBuffer b =
                ByteBuffer.allocate(Arrays.stream(parts).mapToInt(p -> p.length).sum()).order(ByteOrder.BIG_ENDIAN);
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }
}
