package org.iwarp4j.conformance.siw;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.SiwFixtures;
import org.iwarp4j.conformance.support.SiwFixtures.Fixture;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateDecoder;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 5, part (a), for the {@code .vec} fixtures the lab cut out of its captures: each siw MPA frame parses
 * with the stack's frame codec into the fields the lab decoded, each siw FPDU is cut by the stack's FPDU
 * reader into exactly the recorded ULPDU (CRC checked where negotiated, non-zero PAD ignored), its DDP and
 * RDMAP fields read as recorded, and each siw Terminate — control word bit-mirrored — decodes to the
 * Layer/EType/Code and M/D/R that siw meant.
 */
class SiwFixtureDecodeTest {

    static List<Fixture> frames() {
        return SiwFixtures.all().stream().filter(f -> f.kind().startsWith("mpa-")).toList();
    }

    static List<Fixture> fpdus() {
        return SiwFixtures.all().stream().filter(f -> f.kind().equals("fpdu")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frames")
    @Requirement({"MPA-24", "MPA-29", "MPA-61"})
    @DisplayName("MPA-24, MPA-29, MPA-61: siw's MPA Requests and Replies parse with the stack's codec into the "
            + "recorded fields (reserved bits such as siw's GSO bit are accepted)")
    void mpaFrames(Fixture f) {
        MpaFrame frame = MpaFrameCodec.parse(Unpooled.wrappedBuffer(f.bytes()));
        assertThat(frame).isNotNull();
        assertThat(frame.length()).isEqualTo(f.intField("length"));
        assertThat(frame.type()).isEqualTo(f.kind().equals("mpa-request") ? MpaFrameType.REQUEST : MpaFrameType.REPLY);
        assertThat(frame.markers()).isEqualTo(f.intField("m") == 1);
        assertThat(frame.crc()).isEqualTo(f.intField("c") == 1);
        assertThat(frame.rejected()).isEqualTo(f.intField("r") == 1);
        assertThat(frame.enhanced()).isEqualTo(f.intField("s_rfc6581") == 1);
        assertThat(frame.revision()).isEqualTo(f.intField("rev"));
        assertThat(frame.privateDataLength()).isEqualTo(f.intField("pd_length"));
        if (frame.enhanced()) {
            assertThat(frame.enhancedData().ird()).isEqualTo(f.intField("enh.ird"));
            assertThat(frame.enhancedData().ord()).isEqualTo(f.intField("enh.ord"));
            assertThat(frame.enhancedData().peerToPeer()).isEqualTo(f.intField("enh.a_peer_to_peer") == 1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fpdus")
    @Requirement({"MPA-06", "MPA-07", "MPA-09", "DDP-05", "RDMAP-01", "RDMAP-03", "RDMAP-08"})
    @DisplayName("MPA-06, MPA-07, MPA-09, DDP-05, RDMAP-01, RDMAP-03, RDMAP-08: each siw FPDU yields exactly its "
            + "recorded ULPDU and header fields; each siw Terminate decodes (in siw's mirrored layout) to the cause "
            + "siw meant")
    void fpdus(Fixture f) {
        boolean crc = f.intField("crc_negotiated") == 1;
        if (crc && "bad".equals(f.field("crc_check"))) {
            // siw's setup Terminate with a zero CRC field although CRC was negotiated (interop/FINDINGS.md M17):
            // an RFC 5044 receiver refuses it as a CRC error (MPA-09); its fields are checked without the CRC.
            ByteBuf strict = Bytes.ALLOC.buffer().writeBytes(f.bytes());
            try {
                assertThatThrownBy(() -> new FpduReader(true, false, 0xFFFF, 0).read(strict, Bytes.ALLOC))
                        .isInstanceOfSatisfying(MpaException.class,
                                e -> assertThat(e.error()).isEqualTo(MpaError.CRC_ERROR));
            } finally {
                strict.release();
            }
            crc = false;
        }
        ByteBuf in = Bytes.ALLOC.buffer().writeBytes(f.bytes());
        ByteBuf u = null;
        try {
            u = new FpduReader(crc, false, 0xFFFF, 0).read(in, Bytes.ALLOC);
            assertThat(u).isNotNull();
            assertThat(in.isReadable()).as("one FPDU").isFalse();
            byte[] ulpdu = ByteBufUtil.getBytes(u);
            assertThat(HexFormat.of().formatHex(ulpdu)).isEqualTo(f.field("ulpdu_hex"));
            assertThat(ulpdu[0] & 0x03).isEqualTo(f.intField("ddp.dv"));
            assertThat((ulpdu[0] & 0x80) != 0).isEqualTo(f.intField("ddp.t") == 1);
            assertThat((ulpdu[0] & 0x40) != 0).isEqualTo(f.intField("ddp.l") == 1);
            assertThat(RdmapControl.version(ulpdu[1] & 0xFF)).isEqualTo(f.intField("rdmap.rv"));
            assertThat(RdmapControl.opcodeCode(ulpdu[1] & 0xFF)).isEqualTo(f.intField("rdmap.opcode"));
            if (f.has("ddp.qn")) {
                assertThat(u.getInt(6)).isEqualTo(f.intField("ddp.qn"));
                assertThat(u.getInt(10)).isEqualTo(f.intField("ddp.msn"));
                assertThat(u.getInt(14)).isEqualTo(f.intField("ddp.mo"));
            }
            if (f.intField("rdmap.opcode") == 7) {
                terminate(f, u);
            }
        } finally {
            in.release();
            if (u != null) {
                u.release();
            }
        }
    }

    private static void terminate(Fixture f, ByteBuf u) {
        int phaseHint = f.name().contains("term-mpa-") ? 0 : 1;
        Terminate t = TerminateDecoder.decode(u, u.readerIndex() + 18, u.readableBytes() - 18,
                TerminateLayout.SIW_MIRRORED,
                phaseHint == 0 ? TerminateDecoder.Phase.SETUP : TerminateDecoder.Phase.RUNNING);
        int octet0 = u.getUnsignedByte(u.readerIndex() + 18);
        int octet2 = u.getUnsignedByte(u.readerIndex() + 20);
        if ((octet0 >>> 4) != (octet0 & 0xF) || octet2 != 0) {
            // the two readings differ: it must have been read as siw wrote it
            assertThat(t.layout()).isEqualTo(TerminateLayout.SIW_MIRRORED);
        }
        assertThat(t.layer()).isEqualTo(f.intField("term.layer"));
        assertThat(t.errorType()).isEqualTo(f.intField("term.etype"));
        assertThat(t.errorCode()).isEqualTo(f.intField("term.error_code"));
        assertThat(t.m()).isEqualTo(f.intField("term.m") == 1);
        assertThat(t.d()).isEqualTo(f.intField("term.d") == 1);
        assertThat(t.cause()).as("a registered cause").isNotNull();
        if (t.d()) {
            // siw writes the payload length (0 for a Read Request) where RFC 5040 has the ULPDU length (FINDINGS R5)
            assertThat(t.ddpSegmentLength()).isEqualTo(f.intField("term.ddp_segment_length"));
            assertThat(HexFormat.of().formatHex(t.terminatedDdpHeader())).isEqualTo(f.field("term.ddp_header_hex"));
        }
        // whatever layout is preferred, a received Terminate never breaks the decoder (it is fatal anyway)
        Terminate rfcFirst = TerminateDecoder.decode(u, u.readerIndex() + 18, u.readableBytes() - 18);
        assertThat(rfcFirst).isNotNull();
    }
}
