package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.ConversationStream.Direction;

import java.util.ArrayList;
import java.util.List;

/** The ULPDUs of a recorded golden conversation, per direction, through MPA's FPDU reader. */
final class Conversations {

    private Conversations() {
    }

    static List<byte[]> ulpdus(ConversationStream conversation, Direction direction) {
        byte[] all = conversation.bytes(direction);
        int privateDataLength = ((all[18] & 0xFF) << 8) | (all[19] & 0xFF);
        int frame = 20 + privateDataLength;
        boolean crc = (all[16] & 0x40) != 0;
        FpduReader reader = new FpduReader(crc, false, 65535, 0);
        ByteBuf in = Unpooled.wrappedBuffer(all, frame, all.length - frame);
        List<byte[]> result = new ArrayList<>();
        ByteBuf ulpdu;
        while (in.isReadable() && (ulpdu = reader.read(in, ByteBufAllocator.DEFAULT)) != null) {
            byte[] bytes = new byte[ulpdu.readableBytes()];
            ulpdu.readBytes(bytes);
            ulpdu.release();
            result.add(bytes);
        }
        return result;
    }

    /** Everything the endpoint wants to send now, as octets (acknowledged at once). */
    static List<byte[]> drain(Endpoint e) {
        e.flush();
        List<byte[]> out = new ArrayList<>();
        byte[] b;
        while ((b = e.llp.takeBytes()) != null) {
            out.add(b);
        }
        return out;
    }

    static ByteBuf segment(byte[] ulpdu) {
        return ByteBufAllocator.DEFAULT.buffer(ulpdu.length).writeBytes(ulpdu);
    }
}
