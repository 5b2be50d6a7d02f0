package org.iwarp4j.ddp;

import io.netty.buffer.Unpooled;
import org.iwarp4j.ddp.header.TaggedHeaderFlyweight;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;

/** Builds raw DDP segments (header + payload) for receive tests, with any field value, valid or not. */
public final class SegmentBytes {

    private SegmentBytes() {}

    public static byte[] tagged(int control, int rsvdUlp, int stag, long to, byte[] payload) {
        byte[] b = new byte[TaggedHeaderFlyweight.HEADER_LENGTH + payload.length];
        new TaggedHeaderFlyweight().wrap(Unpooled.wrappedBuffer(b), 0).control(control).rsvdUlp(rsvdUlp).stag(stag)
                .taggedOffset(to);
        System.arraycopy(payload, 0, b, TaggedHeaderFlyweight.HEADER_LENGTH, payload.length);
        return b;
    }

    /** A tagged RDMA Write segment (RDMAP control 0x40) with L set as given. */
    public static byte[] write(boolean last, int stag, long to, byte[] payload) {
        return tagged(last ? 0xC1 : 0x81, 0x40, stag, to, payload);
    }

    public static byte[] untagged(int control, int rsvdUlp, int word, int qn, int msn, int mo, byte[] payload) {
        byte[] b = new byte[UntaggedHeaderFlyweight.HEADER_LENGTH + payload.length];
        new UntaggedHeaderFlyweight().wrap(Unpooled.wrappedBuffer(b), 0).control(control).rsvdUlp(rsvdUlp)
                .rsvdUlpWord(word).queueNumber(qn).messageSequenceNumber(msn).messageOffset(mo);
        System.arraycopy(payload, 0, b, UntaggedHeaderFlyweight.HEADER_LENGTH, payload.length);
        return b;
    }

    /** An untagged Send segment (RDMAP control 0x43) on QN 0. */
    public static byte[] send(boolean last, int msn, int mo, byte[] payload) {
        return untagged(last ? 0x41 : 0x01, 0x43, 0, 0, msn, mo, payload);
    }
}
