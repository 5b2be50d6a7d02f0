package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A CRC error carries the FPDU that failed the check, so the layer above can say what the peer meant. The
 * octets are Linux siw's: a p2p siw Initiator whose Reply allowed only the Send RTR sends Terminate 2/0/07
 * as its first FPDU, with a CRC field of zero although the Reply negotiated CRC (interop FINDINGS M17, cell
 * iwarp-mpa-from-siw-p2p-send-rtr).
 */
class UnverifiedFpduTest {

    private static final String SIW_SETUP_TERMINATE = "0016" + "4147" + "00000000" + "00000002" + "00000001"
            + "00000000" + "02070000" + "0000" + "00000000";

    @Test
    void theCrcErrorCarriesTheUlpduAndTheCrcField() {
        byte[] wire = HexFormat.of().parseHex(SIW_SETUP_TERMINATE);
        ByteBuf in = ByteBufAllocator.DEFAULT.directBuffer().writeBytes(wire);
        try {
            FpduReader r = new FpduReader(true, false, 65535, 0);
            MpaException e = catchThrowableOfType(() -> r.read(in, ByteBufAllocator.DEFAULT), MpaException.class);
            assertThat(e.error()).isEqualTo(MpaError.CRC_ERROR);
            assertThat(e.unverifiedFpdu()).isNotNull();
            assertThat(e.unverifiedFpdu().crcField()).isZero();
            assertThat(HexFormat.of().formatHex(e.unverifiedFpdu().ulpdu()))
                    .isEqualTo(SIW_SETUP_TERMINATE.substring(4, 4 + 2 * 0x16));
            assertThat(in.readerIndex()).as("nothing consumed").isZero();
        } finally {
            in.release();
        }
    }

    @Test
    void otherErrorsCarryNoFpdu() {
        ByteBuf in = ByteBufAllocator.DEFAULT.directBuffer().writeBytes(new byte[] {(byte) 0xff, (byte) 0xf0});
        try {
            MpaException e = catchThrowableOfType(() -> new FpduReader(true, false, 1024, 0)
                    .read(in, ByteBufAllocator.DEFAULT), MpaException.class);
            assertThat(e.error()).isEqualTo(MpaError.CRC_ERROR);
            assertThat(e.unverifiedFpdu()).isNull();
        } finally {
            in.release();
        }
    }
}
