package org.iwarp4j.tools.pcap;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Takes one captured packet apart down to TCP: link-layer header ({@link LinkType}), IPv4 or IPv6
 * (with extension headers), TCP header. Everything else is skipped with a reason.
 */
public final class PacketDecoder {

    /** What came out of one packet: a TCP segment, or why there is none. */
    public sealed interface Result permits Segment, Skipped {}

    public record Segment(TcpSegment segment) implements Result {}

    /** Not a TCP segment we can use; {@code reason} says why (for a note to the user). */
    public record Skipped(int frame, String reason) implements Result {}

    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86dd;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88a8;
    private static final int ETHERTYPE_VLAN_OLD_QINQ = 0x9100;
    private static final int PROTOCOL_TCP = 6;
    private static final int AF_INET = 2;

    private PacketDecoder() {}

    public static Result decode(LinkType linkType, PcapRecord record) {
        byte[] p = record.data();
        int frame = record.frameNumber();
        ByteBuffer b = ByteBuffer.wrap(p).order(ByteOrder.BIG_ENDIAN);
        int ipAt;
        int etherType;
        switch (linkType) {
            case ETHERNET -> {
                int at = 12;
                if (p.length < at + 2) {
                    return new Skipped(frame, "shorter than an Ethernet header");
                }
                etherType = u16(b, at);
                while ((etherType == ETHERTYPE_VLAN || etherType == ETHERTYPE_QINQ
                        || etherType == ETHERTYPE_VLAN_OLD_QINQ)
                        && p.length >= at + 6) {
                    at += 4;
                    etherType = u16(b, at);
                }
                ipAt = at + 2;
            }
            case LINUX_SLL -> {
                if (p.length < 16) {
                    return new Skipped(frame, "shorter than a Linux cooked (SLL) header");
                }
                etherType = u16(b, 14);
                ipAt = 16;
            }
            case LINUX_SLL2 -> {
                if (p.length < 20) {
                    return new Skipped(frame, "shorter than a Linux cooked v2 (SLL2) header");
                }
                etherType = u16(b, 0);
                ipAt = 20;
            }
            case NULL, LOOP -> {
                if (p.length < 4) {
                    return new Skipped(frame, "shorter than a loopback header");
                }
                int big = b.getInt(0);
                // LINKTYPE_NULL stores the family in the capturing host's byte order; LOOP in network order.
                int family = linkType == LinkType.LOOP || (big >= 0 && big < 256) ? big : Integer.reverseBytes(big);
                etherType = family == AF_INET ? ETHERTYPE_IPV4
                        : family == 24 || family == 28 || family == 30 ? ETHERTYPE_IPV6 : -1;
                ipAt = 4;
            }
            case RAW, IPV4, IPV6 -> {
                if (p.length < 1) {
                    return new Skipped(frame, "empty packet");
                }
                etherType = (p[0] >> 4 & 0xf) == 4 ? ETHERTYPE_IPV4 : (p[0] >> 4 & 0xf) == 6 ? ETHERTYPE_IPV6 : -1;
                ipAt = 0;
            }
            default -> throw new IllegalStateException("link type " + linkType);
        }
        if (etherType == ETHERTYPE_IPV4) {
            return ipv4(frame, b, ipAt, record.originalLength());
        }
        if (etherType == ETHERTYPE_IPV6) {
            return ipv6(frame, b, ipAt, record.originalLength());
        }
        return new Skipped(frame, "not IP");
    }

    private static Result ipv4(int frame, ByteBuffer b, int at, int originalLength) {
        int captured = b.capacity() - at;
        if (captured < 20 || (b.get(at) >> 4 & 0xf) != 4) {
            return new Skipped(frame, "truncated or malformed IPv4 header");
        }
        int headerLength = (b.get(at) & 0xf) * 4;
        int totalLength = u16(b, at + 2);
        if (totalLength == 0) {
            // Segmentation offload captures can carry total length 0: the packet is all there is.
            totalLength = originalLength - at;
        }
        if (headerLength < 20 || totalLength < headerLength || captured < headerLength) {
            return new Skipped(frame, "malformed IPv4 header");
        }
        int fragment = u16(b, at + 6);
        if ((fragment & 0x3fff) != 0) {
            return new Skipped(frame, "IPv4 fragment (fragments are not reassembled)");
        }
        if ((b.get(at + 9) & 0xff) != PROTOCOL_TCP) {
            return new Skipped(frame, "not TCP");
        }
        byte[] src = Arrays.copyOfRange(b.array(), at + 12, at + 16);
        byte[] dst = Arrays.copyOfRange(b.array(), at + 16, at + 20);
        return tcp(frame, b, src, dst, at + headerLength, totalLength - headerLength);
    }

    private static Result ipv6(int frame, ByteBuffer b, int at, int originalLength) {
        int captured = b.capacity() - at;
        if (captured < 40 || (b.get(at) >> 4 & 0xf) != 6) {
            return new Skipped(frame, "truncated or malformed IPv6 header");
        }
        int payloadLength = u16(b, at + 4);
        if (payloadLength == 0) {
            payloadLength = originalLength - at - 40; // jumbogram or offload capture
        }
        int next = b.get(at + 6) & 0xff;
        byte[] src = Arrays.copyOfRange(b.array(), at + 8, at + 24);
        byte[] dst = Arrays.copyOfRange(b.array(), at + 24, at + 40);
        int p = at + 40;
        int remaining = payloadLength;
        while (next != PROTOCOL_TCP) {
            if (next == 44) {
                return new Skipped(frame, "IPv6 fragment (fragments are not reassembled)");
            }
            int extLength;
            if (next == 0 || next == 43 || next == 60) {        // hop-by-hop, routing, destination options
                if (b.capacity() < p + 2) {
                    return new Skipped(frame, "truncated IPv6 extension header");
                }
                extLength = ((b.get(p + 1) & 0xff) + 1) * 8;
            } else if (next == 51) {                            // authentication header
                if (b.capacity() < p + 2) {
                    return new Skipped(frame, "truncated IPv6 extension header");
                }
                extLength = ((b.get(p + 1) & 0xff) + 2) * 4;
            } else {
                return new Skipped(frame, "not TCP");
            }
            next = b.get(p) & 0xff;
            p += extLength;
            remaining -= extLength;
            if (remaining < 0 || b.capacity() < p) {
                return new Skipped(frame, "malformed IPv6 extension headers");
            }
        }
        return tcp(frame, b, src, dst, p, remaining);
    }

    private static Result tcp(int frame, ByteBuffer b, byte[] src, byte[] dst, int at, int segmentLength) {
        if (b.capacity() < at + 20 || segmentLength < 20) {
            return new Skipped(frame, "truncated TCP header");
        }
        int srcPort = u16(b, at);
        int dstPort = u16(b, at + 2);
        long seq = Integer.toUnsignedLong(b.getInt(at + 4));
        int headerLength = (b.get(at + 12) >> 4 & 0xf) * 4;
        int flags = b.get(at + 13) & 0xff;
        if (headerLength < 20 || headerLength > segmentLength || b.capacity() < at + headerLength) {
            return new Skipped(frame, "malformed TCP header");
        }
        int payloadLength = segmentLength - headerLength;
        int payloadAt = at + headerLength;
        int captured = Math.min(payloadLength, b.capacity() - payloadAt);
        byte[] payload = Arrays.copyOfRange(b.array(), payloadAt, payloadAt + captured);
        return new Segment(new TcpSegment(frame, new Endpoint(src, srcPort), new Endpoint(dst, dstPort),
                seq, flags, payload, payloadLength));
    }

    private static int u16(ByteBuffer b, int at) {
        return Short.toUnsignedInt(b.getShort(at));
    }
}
