package org.iwarp4j.verbs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelPromise;
import io.netty.channel.VoidChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.pcap.PcapWriteHandler;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The capture sees one packet per gathered write: parts with void promises join the part that ends them. */
class PcapPacketCoalescerTest {

    private static ByteBuf bytes(int n, int value) {
        ByteBuf b = ByteBufAllocator.DEFAULT.directBuffer(n);
        for (int i = 0; i < n; i++) {
            b.writeByte(value);
        }
        return b;
    }

    @Test
    void partsOfOneFpduBecomeOnePacketAndThePromiseCompletes() {
        EmbeddedChannel ch = new EmbeddedChannel(new PcapPacketCoalescer());
        VoidChannelPromise part = new VoidChannelPromise(ch, false);
        ch.write(bytes(2, 1), part);
        ch.write(bytes(34, 2), part);
        ChannelPromise last = ch.newPromise();
        ch.write(bytes(4, 3), last);
        ch.flush();
        ByteBuf packet = ch.readOutbound();
        try {
            assertThat(packet.readableBytes()).isEqualTo(40);
            assertThat(ByteBufUtil.getBytes(packet, 0, 3)).containsExactly(1, 1, 2);
            assertThat(packet.getByte(39)).isEqualTo((byte) 3);
        } finally {
            packet.release();
        }
        assertThat(last.isSuccess()).isTrue();
        assertThat((Object) ch.readOutbound()).isNull();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void theChannelsVoidPromiseEndsAnFpduAndOtherVoidPromisesContinueIt() {
        EmbeddedChannel ch = new EmbeddedChannel(new PcapPacketCoalescer());
        VoidChannelPromise part = new VoidChannelPromise(ch, false);
        for (int fpdu = 0; fpdu < 2; fpdu++) {
            ch.write(bytes(2, 1), part);
            ch.write(bytes(18, 2), part);
            ch.write(bytes(4, 3), ch.voidPromise());
        }
        ch.flush();
        for (int fpdu = 0; fpdu < 2; fpdu++) {
            ByteBuf packet = ch.readOutbound();
            assertThat(packet.readableBytes()).isEqualTo(24);
            packet.release();
        }
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aWriteWithAPromiseAloneIsPassedOnAsItIs() {
        EmbeddedChannel ch = new EmbeddedChannel(new PcapPacketCoalescer());
        ByteBuf frame = bytes(24, 7);
        ch.writeAndFlush(frame);
        ByteBuf out = ch.readOutbound();
        assertThat(out).isSameAs(frame);
        out.release();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aFlushEndsAPacketAndTheSizeLimitSplitsOne() {
        EmbeddedChannel ch = new EmbeddedChannel(new PcapPacketCoalescer());
        ch.write(bytes(10, 1), new VoidChannelPromise(ch, false));
        ch.flush();
        ByteBuf first = ch.readOutbound();
        assertThat(first.readableBytes()).isEqualTo(10);
        first.release();
        ch.write(bytes(PcapPacketCoalescer.MAX_PACKET - 5, 2), new VoidChannelPromise(ch, false));
        ch.write(bytes(10, 3), ch.newPromise());
        ch.flush();
        ByteBuf a = ch.readOutbound();
        ByteBuf b = ch.readOutbound();
        assertThat(a.readableBytes()).isEqualTo(PcapPacketCoalescer.MAX_PACKET - 5);
        assertThat(b.readableBytes()).isEqualTo(10);
        a.release();
        b.release();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void pendingPartsAreReleasedWhenTheHandlerGoes() {
        EmbeddedChannel ch = new EmbeddedChannel(new PcapPacketCoalescer());
        ByteBuf part = bytes(8, 1);
        ch.write(part, new VoidChannelPromise(ch, false));
        ch.pipeline().removeFirst();
        assertThat(part.refCnt()).isZero();
        ch.finish();
    }

    @Test
    void aBufferFramedBehindHeadroomIsCapturedFromItsReaderIndex() {
        // An FPDU framed in place: 4 octets of headroom the socket never sends, then the 12 octets that go out.
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast(PcapWriteHandler.builder()
                .forceTcpChannel(new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("127.0.0.1", 2), false)
                .build(file));
        ch.pipeline().addLast(new PcapPacketCoalescer());
        ByteBuf frame = ByteBufAllocator.DEFAULT.directBuffer(16);
        frame.writeInt(0xEEEEEEEE);
        for (int i = 1; i <= 12; i++) {
            frame.writeByte(i);
        }
        frame.readerIndex(4);
        ch.writeAndFlush(frame);
        ByteBuf sent = ch.readOutbound();
        try {
            assertThat(ByteBufUtil.getBytes(sent)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        } finally {
            sent.release();
        }
        assertThat(frame.refCnt()).isZero();
        ch.finishAndReleaseAll();
        assertThat(tcpPayloads(file.toByteArray()))
                .containsExactly(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    }

    /** The non-empty TCP payloads of a pcap file (Ethernet, IPv4 with a 20-octet header, TCP). */
    private static List<byte[]> tcpPayloads(byte[] pcap) {
        ByteBuffer in =
                ByteBuffer.wrap(pcap).order(pcap[0] == (byte) 0xA1 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        in.position(24);
        List<byte[]> out = new ArrayList<>();
        while (in.remaining() >= 16) {
            in.position(in.position() + 8);
            int caplen = in.getInt();
            in.getInt();
            int start = in.position();
            int ip = start + 14;
            int tcp = ip + (pcap[ip] & 0x0F) * 4;
            int data = tcp + ((pcap[tcp + 12] & 0xF0) >> 4) * 4;
            if (data < start + caplen) {
                out.add(Arrays.copyOfRange(pcap, data, start + caplen));
            }
            in.position(start + caplen);
        }
        return out;
    }
}
