package org.iwarp4j.tools.pcap;

/**
 * The TCP part of one captured packet.
 *
 * @param frame                 the pcap frame number it came from
 * @param source                sender
 * @param destination           receiver
 * @param sequence              sequence number, unsigned 32 bits
 * @param flags                 the TCP flag octet ({@link #SYN}, {@link #FIN}, ...)
 * @param payload               the captured payload octets
 * @param payloadLength         payload octets the segment carried on the wire (more than
 *                              {@code payload.length} when the capture cut the packet short)
 */
public record TcpSegment(int frame, Endpoint source, Endpoint destination, long sequence, int flags,
                         byte[] payload, int payloadLength) {

    public static final int FIN = 0x01;
    public static final int SYN = 0x02;
    public static final int RST = 0x04;
    public static final int ACK = 0x10;

    public TcpSegment {
        payload = payload.clone();
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    /** Length of the captured payload, without copying it. */
    public int capturedLength() {
        return payload.length;
    }

    byte[] payloadUnsafe() {
        return payload;
    }

    public boolean syn() {
        return (flags & SYN) != 0;
    }

    public boolean ack() {
        return (flags & ACK) != 0;
    }

    /** Sequence number of the first payload octet: a SYN occupies one sequence number before its data. */
    public long firstDataSequence() {
        return (sequence + (syn() ? 1 : 0)) & 0xffffffffL;
    }
}
