package org.iwarp4j.mpa.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.channels.ClosedChannelException;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.junit.jupiter.api.Test;

/**
 * A Responder's FPDUs are held until the Initiator's first FPDU (RFC 5044 §7.1.2 rule 4); if the channel goes
 * first, each held write fails with {@link ClosedChannelException} and its ULPDU is released.
 */
class FpduEncoderHoldTest {

    @Test
    void heldWritesFailWhenTheChannelClosesFirst() {
        EmbeddedChannel ch = new EmbeddedChannel();
        FpduEncoder encoder = new FpduEncoder(new FpduWriter(true, false, 65535, 0), true);
        ch.pipeline().addLast(encoder);
        ByteBuf first = Unpooled.buffer().writeInt(1);
        ByteBuf second = Unpooled.buffer().writeInt(2);
        ChannelPromise one = ch.newPromise();
        ChannelPromise two = ch.newPromise();
        ch.writeAndFlush(first, one);
        ch.writeAndFlush(second, two);
        assertThat(encoder.holding()).isTrue();
        assertThat(one.isDone()).isFalse();
        assertThat((Object) ch.readOutbound()).isNull();

        ch.close();

        assertThat(one.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(two.cause()).isSameAs(one.cause());
        assertThat(first.refCnt()).isZero();
        assertThat(second.refCnt()).isZero();
        assertThat((Object) ch.readOutbound()).isNull();
    }
}
