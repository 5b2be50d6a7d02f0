package org.iwarp4j.rdmap.terminate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Terminate header encoding and lenient decoding, RFC 5040 §4.8 [RDMAP-07..12], docs/protocol/siw-interop.md §F. */
class TerminateCodecTest {

    private static final int UNTAGGED_DDP_HEADER = 18;

    static Stream<GoldenVector> terminateVectors() {
        return Stream.concat(GoldenVectors.inGroup("rdmap").stream(), GoldenVectors.inGroup("markers").stream())
                .filter(v -> v.has("rdmap.opcode") && v.intField("rdmap.opcode") == 7);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("terminateVectors")
    void decodesEveryTerminateVector(GoldenVector v) {
        byte[] ulpdu = v.hex("ulpdu_hex");
        ByteBuf buf = Unpooled.wrappedBuffer(ulpdu);
        Terminate t = TerminateDecoder.decode(buf, UNTAGGED_DDP_HEADER, ulpdu.length - UNTAGGED_DDP_HEADER);

        // 20 06 00 00 (Insufficient IRD) is also siw's mirrored 0x0/0x2/0x06, so a note may say "ambiguous"
        assertThat(t.notes()).matches("(ambiguous layout, also reads as .*)?");
        assertThat(t.layout()).isEqualTo(TerminateLayout.RFC);
        assertThat(t.cause()).isNotNull();
        if (v.has("term.layer")) {
            assertThat(t.layer()).isEqualTo(v.intField("term.layer"));
            assertThat(t.errorType()).isEqualTo(v.intField("term.etype"));
            assertThat(t.errorCode()).isEqualTo(v.intField("term.error_code"));
        }
        if (v.has("term.m")) {
            assertThat(t.m()).isEqualTo(v.flag("term.m"));
            assertThat(t.d()).isEqualTo(v.flag("term.d"));
            assertThat(t.r()).isEqualTo(v.flag("term.r"));
        }
        if (v.has("term.ddp_segment_length")) {
            assertThat(t.ddpSegmentLength()).isEqualTo(v.intField("term.ddp_segment_length"));
        }
        if (v.has("term.terminated_ddp_header_hex")) {
            assertThat(t.terminatedDdpHeader()).isEqualTo(v.hex("term.terminated_ddp_header_hex"));
        }
        if (v.has("term.terminated_rdma_header_hex")) {
            assertThat(t.terminatedRdmaHeader()).isEqualTo(v.hex("term.terminated_rdma_header_hex"));
        }
        // re-encoding what was decoded gives the vector's octets
        assertThat(encode(t)).isEqualTo(Arrays.copyOfRange(ulpdu, UNTAGGED_DDP_HEADER, ulpdu.length));
    }

    @Test
    void encodesTheReadRequestInvalidStagVectorFromItsFields() {
        GoldenVector v = GoldenVectors.named("fpdu-terminate-rr-invalid-stag");
        Terminate t = Terminate.forIncomingMessage(TerminateCause.RDMAP_INVALID_STAG,
                v.intField("term.ddp_segment_length"), v.hex("term.terminated_ddp_header_hex"),
                v.hex("term.terminated_rdma_header_hex"));
        assertThat(t.m()).isTrue();
        assertThat(t.d()).isTrue();
        assertThat(t.r()).isTrue();
        byte[] ulpdu = v.hex("ulpdu_hex");
        assertThat(encode(t)).isEqualTo(Arrays.copyOfRange(ulpdu, UNTAGGED_DDP_HEADER, ulpdu.length));
    }

    @Test
    void encodesTheDdpTaggedBoundsVectorFromItsFields() {
        GoldenVector v = GoldenVectors.named("fpdu-terminate-ddp-tagged-bounds");
        byte[] writeUlpdu = GoldenVectors.named("fpdu-rdma-write").hex("ulpdu_hex");
        // Fig 10: a DDP error copies the DDP header and no RDMA header, even if one is offered
        Terminate t = Terminate.forIncomingMessage(TerminateCause.DDP_BASE_OR_BOUNDS_VIOLATION, writeUlpdu.length,
                Arrays.copyOf(writeUlpdu, 14), new byte[28]);
        assertThat(t.r()).isFalse();
        byte[] ulpdu = v.hex("ulpdu_hex");
        assertThat(encode(t)).isEqualTo(Arrays.copyOfRange(ulpdu, UNTAGGED_DDP_HEADER, ulpdu.length));
    }

    @Test
    void llpAndLocalCausesCarryNoHeaders() {
        assertThat(encode(Terminate.of(TerminateCause.MPA_CRC_ERROR))).isEqualTo(hex("20020000"));
        assertThat(encode(Terminate.of(TerminateCause.MPA_INSUFFICIENT_IRD))).isEqualTo(hex("20060000"));
        assertThat(encode(Terminate.of(TerminateCause.MPA_NO_MATCHING_RTR))).isEqualTo(hex("20070000"));
        // Fig 10: an LLP error copies nothing even when a header is offered
        Terminate t = Terminate.forIncomingMessage(TerminateCause.MPA_CRC_ERROR, 46, new byte[18], null);
        assertThat(encode(t)).isEqualTo(hex("20020000"));
        Terminate local = Terminate.forIncomingMessage(TerminateCause.RDMAP_LOCAL_CATASTROPHIC, 46, new byte[18],
                new byte[28]);
        assertThat(encode(local)).isEqualTo(hex("00000000"));
    }

    @Test
    void remoteOperationErrorsCopyTheDdpHeaderButNeverTheRdmaHeader() {
        byte[] ddp = hex("414100000000000000010000000400000000");
        Terminate t = Terminate.forIncomingMessage(TerminateCause.RDMAP_CATASTROPHIC_LOCALIZED, 46, ddp, new byte[28]);
        assertThat(encode(t)).isEqualTo(hex("0207c000002e" + "414100000000000000010000000400000000"));
    }

    @Test
    void siwMirroredCrcErrorIsRecognised() {
        Terminate t = decode("02020000");
        assertThat(t.cause()).isEqualTo(TerminateCause.MPA_CRC_ERROR);
        assertThat(t.layout()).isEqualTo(TerminateLayout.SIW_MIRRORED);
        assertThat(t.notes()).isEmpty();
    }

    @Test
    void siwMirroredDdpErrorWithPayloadLengthAndCopiedHeader() {
        // siw, DDP untagged "no buffer" for a 100-octet Send: layer 1 low nibble, etype 2 high nibble,
        // M|D = 0x03, then the payload length (100) where the RFC has the segment length (118).
        String sendHeader = "414300000000000000000000000700000000";
        Terminate t = decode("21020300" + "0064" + sendHeader);
        assertThat(t.cause()).isEqualTo(TerminateCause.DDP_INVALID_MSN_NO_BUFFER);
        assertThat(t.layout()).isEqualTo(TerminateLayout.SIW_MIRRORED);
        assertThat(t.m()).isTrue();
        assertThat(t.d()).isTrue();
        assertThat(t.r()).isFalse();
        assertThat(t.ddpSegmentLength()).isEqualTo(100);
        assertThat(t.terminatedDdpHeader()).isEqualTo(hex(sendHeader));
        assertThat(t.notes()).isEmpty();
    }

    @Test
    void siwSendWithInvalidateQuirkRWithoutRdmaHeader() {
        // siw sets M|D|R for a Remote Protection error on a Send with Invalidate but copies 18 octets only.
        String header = "414400abcdef00000000000000030000000000";
        Terminate t = decode("10090700" + "0000" + header.substring(0, 36));
        assertThat(t.cause()).isEqualTo(TerminateCause.RDMAP_STAG_CANNOT_BE_INVALIDATED);
        assertThat(t.layout()).isEqualTo(TerminateLayout.SIW_MIRRORED);
        assertThat(t.r()).isTrue();
        assertThat(t.terminatedRdmaHeader()).isNull();
        assertThat(t.terminatedDdpHeader()).hasSize(18);
        assertThat(t.notes()).contains("R=1 but only 0 octets left");
    }

    @Test
    void ambiguousControlWordFollowsThePreference() {
        // 02 06 00 00: RFC reading 0x0/0x2/0x06 Unexpected OpCode, siw reading 0x2/0x0/0x06 Insufficient IRD
        Terminate rfc = decode("02060000");
        assertThat(rfc.cause()).isEqualTo(TerminateCause.RDMAP_UNEXPECTED_OPCODE);
        assertThat(rfc.notes()).contains("ambiguous");
        ByteBuf buf = Unpooled.wrappedBuffer(hex("02060000"));
        Terminate siw = TerminateDecoder.decode(buf, 0, 4, TerminateLayout.SIW_MIRRORED);
        assertThat(siw.cause()).isEqualTo(TerminateCause.MPA_INSUFFICIENT_IRD);
        assertThat(siw.layout()).isEqualTo(TerminateLayout.SIW_MIRRORED);
    }

    @Test
    void inTheSetupPhaseBothLayoutsOfInsufficientIrdAreRecognised() {
        // RFC 6581 §9.1: 0x2/0x0/0x06 is only sent as the initiator's first FPDU
        for (String control : new String[] {"20060000", "02060000"}) {
            ByteBuf buf = Unpooled.wrappedBuffer(hex(control));
            Terminate t = TerminateDecoder.decode(buf, 0, 4, TerminateLayout.RFC, TerminateDecoder.Phase.SETUP);
            assertThat(t.cause()).as(control).isEqualTo(TerminateCause.MPA_INSUFFICIENT_IRD);
            assertThat(t.notes()).isEmpty();
        }
        assertThat(TerminateDecoder.decode(Unpooled.wrappedBuffer(hex("02070000")), 0, 4, TerminateLayout.RFC,
                TerminateDecoder.Phase.SETUP).layout()).isEqualTo(TerminateLayout.SIW_MIRRORED);
        // outside the setup phase an LLP 0x05-0x07 reading is impossible: an RFC peer's headerless
        // 0x0/0x2/0x06 stays what it says
        Terminate later = TerminateDecoder.decode(Unpooled.wrappedBuffer(hex("02060000")), 0, 4, TerminateLayout.RFC,
                TerminateDecoder.Phase.RUNNING);
        assertThat(later.cause()).isEqualTo(TerminateCause.RDMAP_UNEXPECTED_OPCODE);
        assertThat(later.layout()).isEqualTo(TerminateLayout.RFC);
    }

    /**
     * The Terminates Linux siw sent in the interop lab (interop/FINDINGS.md F2, bytes after the untagged
     * DDP header), with the context they arrived in.
     */
    @Test
    void terminatesCapturedFromSiw() {
        record Case(String body, boolean setupPhase, TerminateCause cause, boolean m, boolean d, boolean r,
                    int segmentLength, int ddpHeaderLength) {
        }
        String readRequestHeaders = "414100000000000000010000004000000000"
                + "0000210000007f000030000000000040" + "1e915d0000005654a53c3598";
        Case[] cases = {
                new Case("02020000", false, TerminateCause.MPA_CRC_ERROR, false, false, false, -1, 0),
                new Case("11000300" + "0010" + "c140deadbe000000000000001000", false, TerminateCause.DDP_INVALID_STAG,
                        true, true, false, 16, 14),
                new Case("11010300" + "0040" + "c140e10e8800000055bdddbd3598", false,
                        TerminateCause.DDP_BASE_OR_BOUNDS_VIOLATION, true, true, false, 64, 14),
                new Case("10010700" + "0000" + readRequestHeaders, false, TerminateCause.RDMAP_BASE_OR_BOUNDS_VIOLATION,
                        true, true, true, 0, 18),
                new Case("21020300" + "0040" + "414300000000000000000000000100000000", false,
                        TerminateCause.DDP_INVALID_MSN_NO_BUFFER, true, true, false, 64, 18),
                new Case("21030300" + "0010" + "414300000000000000000000000700000000", false,
                        TerminateCause.DDP_INVALID_MSN_RANGE, true, true, false, 16, 18),
                new Case("20070300" + "0000" + "414100000000000000010000000300000000", false,
                        TerminateCause.RDMAP_CATASTROPHIC_LOCALIZED, true, true, false, 0, 18),
                new Case("20060000", false, TerminateCause.RDMAP_UNEXPECTED_OPCODE, false, false, false, -1, 0),
                new Case("21060000", false, TerminateCause.DDP_UNTAGGED_INVALID_VERSION, false, false, false, -1, 0),
                new Case("11040000", false, TerminateCause.DDP_TAGGED_INVALID_VERSION, false, false, false, -1, 0),
                new Case("20050000", false, TerminateCause.RDMAP_INVALID_VERSION, false, false, false, -1, 0),
                new Case("02060000", true, TerminateCause.MPA_INSUFFICIENT_IRD, false, false, false, -1, 0),
                new Case("02070000", true, TerminateCause.MPA_NO_MATCHING_RTR, false, false, false, -1, 0),
        };
        for (Case c : cases) {
            ByteBuf buf = Unpooled.wrappedBuffer(hex(c.body()));
            Terminate t = TerminateDecoder.decode(buf, 0, buf.capacity(), TerminateLayout.RFC,
                    c.setupPhase() ? TerminateDecoder.Phase.SETUP : TerminateDecoder.Phase.RUNNING);
            assertThat(t.cause()).as(c.body()).isEqualTo(c.cause());
            assertThat(new boolean[] {t.m(), t.d(), t.r()}).as(c.body()).containsExactly(c.m(), c.d(), c.r());
            assertThat(t.ddpSegmentLength()).as(c.body()).isEqualTo(c.segmentLength());
            assertThat(t.terminatedDdpHeader() == null ? 0 : t.terminatedDdpHeader().length)
                    .isEqualTo(c.ddpHeaderLength());
            assertThat(t.notes()).as(c.body()).isEmpty();
            if (c.r()) {
                assertThat(t.terminatedRdmaHeader()).hasSize(28);
            }
        }
    }

    @Test
    void rfcLayoutFromARealPeerIsNotMistakenForSiw() {
        assertThat(decode("20020000").cause()).isEqualTo(TerminateCause.MPA_CRC_ERROR);
        assertThat(decode("20020000").layout()).isEqualTo(TerminateLayout.RFC);
        Terminate t = decode("1202c000" + "0076" + "414300000000000000000000000700000000");
        assertThat(t.cause()).isEqualTo(TerminateCause.DDP_INVALID_MSN_NO_BUFFER);
        assertThat(t.layout()).isEqualTo(TerminateLayout.RFC);
        assertThat(t.ddpSegmentLength()).isEqualTo(0x76);
    }

    @Test
    void malformedTerminatesNeverThrow() {
        assertThat(decode("").notes()).contains("truncated");
        assertThat(decode("0100").notes()).contains("truncated");
        Terminate t = decode("0100e000" + "002e" + "4141");
        assertThat(t.cause()).isEqualTo(TerminateCause.RDMAP_INVALID_STAG);
        assertThat(t.terminatedDdpHeader()).hasSize(2);
        assertThat(t.notes()).contains("truncated");
        Terminate junk = decode("ffffffff" + "ff".repeat(80));
        assertThat(junk.notes()).isNotEmpty();
        // index/length beyond the buffer
        ByteBuf small = Unpooled.wrappedBuffer(hex("0100e000"));
        assertThat(TerminateDecoder.decode(small, 2, 100).notes()).contains("truncated");
        assertThat(TerminateDecoder.decode(small, 10, 4).notes()).isNotEmpty();
    }

    @Test
    void everyCauseRoundTripsThroughItsTriple() {
        for (TerminateCause c : TerminateCause.values()) {
            assertThat(TerminateCause.of(c.layer().value(), c.errorType().value(), c.code())).isEqualTo(c);
            Terminate decoded = decode(HexFormat.of().formatHex(encode(Terminate.of(c))));
            assertThat(decoded.cause()).isEqualTo(c);
        }
        assertThat(TerminateCause.of(0, 0, 0x42)).isEqualTo(TerminateCause.RDMAP_LOCAL_CATASTROPHIC);
        assertThat(TerminateCause.of(0, 1, 0x05)).isNull();
        assertThat(TerminateCause.of(3, 0, 0)).isNull();
        assertThat(TerminateCause.RDMAP_INVALID_STAG.triple()).isEqualTo("0x0/0x1/0x00");
    }

    @Test
    void anyTripleIsWrittenAsStringFormatWroteIt() {
        for (int layer = 0; layer < 16; layer++) {
            for (int etype = 0; etype < 16; etype++) {
                for (int code : new int[] {0, 0x5, 0xf, 0x10, 0xab, 0xff}) {
                    assertThat(TerminateCause.triple(layer, etype, code))
                            .isEqualTo(String.format("0x%X/0x%X/0x%02X", layer, etype, code));
                }
            }
        }
        assertThat(Terminate.of(TerminateCause.RDMAP_INVALID_STAG).describe())
                .startsWith(TerminateCause.RDMAP_INVALID_STAG.triple() + " ");
    }

    private static Terminate decode(String hex) {
        ByteBuf buf = Unpooled.wrappedBuffer(hex(hex));
        return TerminateDecoder.decode(buf, 0, buf.readableBytes());
    }

    private static byte[] encode(Terminate t) {
        ByteBuf out = PooledByteBufAllocator.DEFAULT.buffer();
        try {
            int n = TerminateEncoder.encode(t, out);
            assertThat(n).isEqualTo(t.encodedLength()).isEqualTo(out.readableBytes());
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            return bytes;
        } finally {
            out.release();
        }
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }
}
