package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ReadOnlyBufferException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link FpduDissector#cursor}: the FPDUs of {@link FpduDissector#dissect(ByteBuf)}, one at a time as they are
 * asked for, and {@link DissectedFpdu#ulpduView()}: the ULPDU without a copy, not to be written.
 */
class FpduDissectorCursorTest {

    @Test
    void theCursorHandsOutTheFpdusOfTheDissectionOneAtATime() {
        byte[] send = GoldenVectors.named("fpdu-send").bytes();
        byte[] write = GoldenVectors.named("fpdu-rdma-write").bytes();
        byte[] badCrc = send.clone();
        badCrc[badCrc.length - 1] ^= 1;
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        for (int i = 0; i < 50; i++) {
            stream.writeBytes(i == 20 ? badCrc : i % 3 == 0 ? write : send);
        }
        byte[] fpdus = stream.toByteArray();
        byte[] cut = Arrays.copyOf(fpdus, fpdus.length - 3); // ends inside the last FPDU
        for (boolean crc : List.of(true, false)) {
            FpduDissector dissector = new FpduDissector(crc, false, 0);
            for (byte[] input : List.of(fpdus, cut)) {
                FpduDissection whole = dissector.dissect(input);
                FpduDissector.Cursor cursor = dissector.cursor(Unpooled.wrappedBuffer(input).asReadOnly());
                List<DissectedFpdu> one = new ArrayList<>();
                int consumed = 0;
                for (DissectedFpdu f = cursor.next(); f != null; f = cursor.next()) {
                    consumed += f.wireLength();
                    assertThat(cursor.consumed()).as("nothing dissected ahead").isEqualTo(consumed);
                    assertThat(cursor.error()).isNull();
                    one.add(f);
                }
                assertThat(one).hasSize(input == fpdus ? 50 : 49).isEqualTo(whole.fpdus());
                assertThat(one.get(20).crcValid()).isEqualTo(crc ? false : null);
                assertThat(cursor.consumed()).isEqualTo(whole.consumed());
                assertThat(cursor.error()).isEqualTo(whole.error());
                assertThat(cursor.next()).as("the end stays the end").isNull();
            }
            FpduDissector.Cursor cursor = dissector.cursor(Unpooled.wrappedBuffer(cut));
            while (cursor.next() != null) {
                assertThat(cursor.error()).isNull();
            }
            assertThat(cursor.error().error()).isEqualTo(MpaError.TCP_CONNECTION_LOST);
        }
    }

    @Test
    void theUlpduViewIsTheUlpduWithoutACopyAndCannotBeWritten() {
        byte[] fpdu = GoldenVectors.named("fpdu-send").bytes();
        DissectedFpdu d = new FpduDissector(true, false, 0).dissect(fpdu).fpdus().get(0);
        ByteBuf view = d.ulpduView();
        assertThat(ByteBufUtil.getBytes(view)).isEqualTo(d.ulpdu());
        assertThat(view.readableBytes()).isEqualTo(d.ulpduLength());
        assertThat(view.isReadOnly()).isTrue();
        assertThatThrownBy(() -> view.setByte(0, 1)).isInstanceOf(ReadOnlyBufferException.class);
        byte[] copy = d.ulpdu();
        copy[0] ^= 1;
        assertThat(d.ulpdu()).as("ulpdu() is a copy").isNotEqualTo(copy);
        assertThat(d.ulpduView().getByte(0)).isNotEqualTo(copy[0]);
    }

    @Test
    void theConstructorKeepsItsOwnCopy() {
        byte[] ulpdu = {1, 2, 3, 4};
        DissectedFpdu d = new DissectedFpdu(0, 0, 12, 4, 2, 0, 0, null, List.of(), ulpdu, null);
        ulpdu[0] = 9;
        assertThat(d.ulpdu()).containsExactly(1, 2, 3, 4);
        assertThat(d).isEqualTo(new DissectedFpdu(0, 0, 12, 4, 2, 0, 0, null, List.of(), new byte[] {1, 2, 3, 4},
                null));
    }
}
