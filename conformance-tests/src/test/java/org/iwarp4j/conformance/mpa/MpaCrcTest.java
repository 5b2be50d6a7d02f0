package org.iwarp4j.conformance.mpa;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.Codec;
import org.iwarp4j.conformance.support.Embedded;
import org.iwarp4j.conformance.support.EmbeddedPair;
import org.iwarp4j.conformance.support.LoopbackStack;
import org.iwarp4j.conformance.support.StackProbe;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.Mulpdu;
import org.iwarp4j.mpa.fpdu.Crc32c;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.netty.MpaEstablishedEvent;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.oracle.StartupFrame;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The MPA CRC (RFC 5044 §4.4, §6, §7.1.1): algorithm, coverage, wire order, default and negotiation. */
class MpaCrcTest {

    /**
     * MPA-09 (RFC 5044 §4.4): the CRC is CRC32c as in iSCSI, over ULPDU_Length, ULPDU, PAD and every
     * marker of the FPDU (a leading FPDUPTR-0 marker and one between PAD and CRC included), sent
     * least-significant octet first. The stack's CRC matches every golden check value, and the stack's
     * writer reproduces every golden FPDU octet for octet (CRC field included) at its stream offset.
     */
    @Test
    @Requirement("MPA-09")
    @DisplayName("MPA-09: CRC32c check values and every golden FPDU's CRC field are reproduced")
    void crc32cAndWireOrder() {
        for (GoldenVector v : GoldenVectors.ofKind("crc32c")) {
            assertThat(Crc32c.compute(v.bytes())).as(v.name()).isEqualTo(v.number("crc32c_value"));
        }
        for (GoldenVector v : GoldenVectors.ofKind("fpdu", "fpdu-markers")) {
            boolean markers = v.kind().equals("fpdu-markers");
            byte[] wire = Codec.frame(true, markers, markers ? v.intField("stream_offset") : 0, v.hex("ulpdu_hex"));
            assertThat(wire).as(v.name()).isEqualTo(v.bytes());
            long value = v.number("crc32c_value");
            byte[] lsbFirst = {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16), (byte) (value >>> 24)};
            assertThat(Arrays.copyOfRange(wire, wire.length - 4, wire.length)).as(v.name()).isEqualTo(lsbFirst);
        }
    }

    /**
     * MPA-09 (RFC 5044 §4.4): coverage, seen from the receiver — changing any single octet before the
     * CRC field (length field, ULPDU, PAD, a leading marker, a marker between PAD and CRC) makes the
     * stack report a CRC error.
     */
    @Test
    @Requirement("MPA-09")
    @DisplayName("MPA-09: every octet before the CRC field, markers and PAD included, is covered")
    void everyOctetIsCovered() {
        for (String name : new String[] {"mstream-i-05-read-request", "mstream-i-06-write-pad1-marker-before-crc",
                "fpdu-send"}) {
            GoldenVector v = GoldenVectors.named(name);
            boolean markers = v.kind().equals("fpdu-markers");
            int offset = markers ? v.intField("stream_offset") : 0;
            byte[] good = v.bytes();
            int lengthField = markers && offset % 512 == 0 ? 4 : 0;
            for (int i = 0; i < good.length - 4; i++) {
                if (i == lengthField || i == lengthField + 1) {
                    continue; // a changed ULPDU_Length moves the CRC field itself: covered, but framed differently
                }
                byte[] bad = good.clone();
                bad[i] ^= 0x01;
                ByteBuf in = Bytes.direct(bad);
                try {
                    FpduReader reader = new FpduReader(true, markers, Mulpdu.MAX, offset);
                    assertThatThrownBy(() -> reader.read(in, Bytes.ALLOC)).as("%s octet %d", name, i)
                            .isInstanceOfSatisfying(MpaException.class,
                                    e -> assertThat(e.error()).isEqualTo(MpaError.CRC_ERROR));
                } finally {
                    in.release();
                }
            }
        }
    }

    /**
     * MPA-10 (RFC 5044 §4.4): every implementation supports CRCs and C=1 is the default. The default
     * configuration sends C=1 in the Request and in the Reply, and even a C=0 Request gets a C=1 Reply
     * from a default Responder, turning CRCs on.
     */
    @Test
    @Requirement("MPA-10")
    @DisplayName("MPA-10: CRCs are supported and on by default (C=1 in Request and Reply)")
    void crcIsTheDefault() {
        assertThat(MpaConfig.defaults().crc()).isTrue();
        StackProbe p = new StackProbe();
        var initiator = Embedded.initiator(MpaConfig.defaults(), p);
        StartupFrame request = StartupFrame.parse(Embedded.outbound(initiator));
        assertThat(request.crc()).isTrue();
        initiator.finishAndReleaseAll();

        StackProbe r = new StackProbe();
        var responder = Embedded.responder(MpaConfig.defaults(), r);
        Embedded.inbound(responder, StartupFrame.request().crc(false).toBytes());
        StartupFrame reply = StartupFrame.parse(Embedded.outbound(responder));
        assertThat(reply.crc()).isTrue();
        assertThat(r.awaitEstablished().parameters().crc()).isTrue();
        responder.finishAndReleaseAll();
    }

    /**
     * MPA-11 (RFC 5044 §4.4): not using CRCs is requested only on explicit administrative configuration:
     * C=0 goes out only when the configuration says {@code crc(false)}; nothing else (revision, markers,
     * private data, role) turns it off. (The SHOULD NOT — configure C=0 only with protection at least as
     * strong as CRC32c — is a deployment rule, documented on {@code MpaConfig}.)
     */
    @Test
    @Requirement("MPA-11")
    @DisplayName("MPA-11: C=0 is sent only when explicitly configured")
    void crcOffOnlyByExplicitConfiguration() {
        for (MpaConfig c : new MpaConfig[] {MpaConfig.defaults(), MpaConfig.builder().revision(1).build(),
                MpaConfig.builder().markers(true).privateData(new byte[9]).build(),
                MpaConfig.builder().peerToPeer(true).build()}) {
            assertThat(firstFrame(c, true).crc()).as(c.toString()).isTrue();
            assertThat(firstFrame(c, false).crc()).as(c.toString()).isTrue();
            MpaConfig off = c.toBuilder().crc(false).build();
            assertThat(firstFrame(off, true).crc()).isFalse();
            assertThat(firstFrame(off, false).crc()).isFalse();
        }
    }

    private static StartupFrame firstFrame(MpaConfig c, boolean initiator) {
        StackProbe p = new StackProbe();
        if (initiator) {
            var ch = Embedded.initiator(c, p);
            StartupFrame f = StartupFrame.parse(Embedded.outbound(ch));
            ch.finishAndReleaseAll();
            return f;
        }
        var ch = Embedded.responder(c, p);
        Embedded.inbound(ch, StartupFrame.request().revision(1).crc(false).toBytes());
        StartupFrame f = StartupFrame.parse(Embedded.outbound(ch));
        ch.finishAndReleaseAll();
        return f;
    }

    /**
     * MPA-12, MPA-26 (RFC 5044 §4.4, §7.1.1): C=1 in either frame makes both sides generate and check
     * CRCs for the whole connection; C=0 in both turns checking off. For all four C combinations: both
     * ends agree, every FPDU on the wire carries a valid CRC when CRCs are on, and a corrupted CRC — after
     * 200 good FPDUs — is an error when CRCs are on and is delivered untouched when both said C=0.
     */
    @Test
    @Requirement({"MPA-12", "MPA-26"})
    @DisplayName("MPA-12, MPA-26: C=1 in either frame means both generate and check CRCs; C=0 in both means neither "
            + "checks")
    void negotiation() {
        for (boolean ci : new boolean[] {false, true}) {
            for (boolean cr : new boolean[] {false, true}) {
                boolean on = ci || cr;
                try (EmbeddedPair pair = new EmbeddedPair(MpaConfig.builder().crc(ci).build(),
                        MpaConfig.builder().crc(cr).build())) {
                    MpaParameters ip = pair.initiatorParameters();
                    MpaParameters rp = pair.responderParameters();
                    assertThat(ip.crc()).as("C %s/%s", ci, cr).isEqualTo(on);
                    assertThat(rp.crc()).isEqualTo(on);
                    for (int i = 0; i < 200; i++) {
                        Embedded.sendUlpdu(pair.initiator, Bytes.pattern(i, i));
                        Embedded.sendUlpdu(pair.responder, Bytes.pattern(i + 1, i));
                        pair.pump();
                    }
                    checkGenerated(pair.initiatorToResponder(), ip.txSeqStartOffset(), on);
                    checkGenerated(pair.responderToInitiator(), rp.txSeqStartOffset(), on);
                    int offset = pair.initiatorToResponder().length - ip.txSeqStartOffset();
                    Embedded.inbound(pair.responder, new FpduFraming(on, false, offset)
                            .encode(Bytes.ascii("corrupted"), FpduTamper.BAD_CRC));
                    if (on) {
                        assertThat(pair.responderProbe.awaitMpaError().error()).isEqualTo(MpaError.CRC_ERROR);
                        assertThat(pair.responderProbe.ulpdus()).hasSize(200);
                    } else {
                        assertThat(pair.responderProbe.all(Throwable.class)).isEmpty();
                        assertThat(pair.responderProbe.ulpdus()).hasSize(201).last()
                                .isEqualTo(Bytes.ascii("corrupted"));
                    }
                }
            }
        }
    }

    private static void checkGenerated(byte[] wire, int frameLength, boolean on) {
        for (DecodedFpdu f : new FpduFraming(true, false, 0)
                .decodeAll(Arrays.copyOfRange(wire, frameLength, wire.length))) {
            if (on) {
                assertThat(f.crcValid()).as("generated CRC of %s", f).isTrue();
            }
        }
    }

    /**
     * MPA-13 (RFC 5044 §4.4, §6, §8): with CRCs on, a receiver checks every FPDU's CRC and treats a
     * mismatch as an invalid FPDU, error 0x2/0x0/0x02. Over a real socket: the scripted peer answers the
     * stack's Request, receives its first FPDU, then sends an FPDU with a bad CRC followed by a good one;
     * the stack reports MPA error 0x02 (Terminate Layer 2 / EType 0 / Code 2) and passes neither up.
     */
    @Test
    @Requirement("MPA-13")
    @DisplayName("MPA-13: a CRC mismatch is reported as 0x2/0x0/0x02 and the FPDU is not passed up (socket)")
    void crcMismatchOverSocket() {
        byte[] first = Bytes.ascii("the stack's first FPDU");
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().withCrc(true).respond(StartupFrame.reply().crc(true))
                    .expectFpduWithUlpdu(first)
                    .sendFpdu(Bytes.ascii("bad"), FpduTamper.BAD_CRC)
                    .sendFpdu(Bytes.ascii("good but too late"))
                    .start();
            StackProbe p = stack.initiator(peer.address(), MpaConfig.builder().revision(1).build(),
                    new StackProbe().sendOnEstablished(first));
            peer.waitForScriptToComplete(StackProbe.WAIT);
            MpaException e = p.awaitMpaError();
            assertThat(e.error()).isEqualTo(MpaError.CRC_ERROR);
            assertThat(e.terminateLayer()).isEqualTo(0x2);
            assertThat(e.terminateErrorType()).isEqualTo(0x0);
            assertThat(e.terminateErrorCode()).isEqualTo(0x02);
            assertThat(p.ulpdus()).isEmpty();
        }
    }
}
