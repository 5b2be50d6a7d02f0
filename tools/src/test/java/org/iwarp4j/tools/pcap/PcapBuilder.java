package org.iwarp4j.tools.pcap;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Writes classic pcap files for tests: any byte order, micro- or nanosecond stamps, several link types. */
public final class PcapBuilder {

    private final LinkType linkType;
    private final ByteOrder order;
    private final boolean nanos;
    private final ByteArrayOutputStream records = new ByteArrayOutputStream();
    private int snapLength = 65535;
    private int vlanTags;
    private int nullFamilyV6 = 24;
    private long time = 1_700_000_000L;

    public PcapBuilder(LinkType linkType, ByteOrder order, boolean nanos) {
        this.linkType = linkType;
        this.order = order;
        this.nanos = nanos;
    }

    public static PcapBuilder ethernet() {
        return new PcapBuilder(LinkType.ETHERNET, ByteOrder.LITTLE_ENDIAN, false);
    }

    public PcapBuilder snapLength(int snapLength) {
        this.snapLength = snapLength;
        return this;
    }

    /** Ethernet only: wrap every packet in this many 802.1Q tags. */
    public PcapBuilder vlanTags(int tags) {
        this.vlanTags = tags;
        return this;
    }

    public PcapBuilder nullFamilyV6(int family) {
        this.nullFamilyV6 = family;
        return this;
    }

    public PcapBuilder tcp(Endpoint src, Endpoint dst, long seq, int flags, byte[] payload) {
        return record(link(ip(src, dst, tcpSegment(src.port(), dst.port(), seq, flags, payload)),
                src.address().length == 16));
    }

    /** A record holding exactly these link-layer octets. */
    public PcapBuilder record(byte[] packet) {
        int captured = Math.min(packet.length, snapLength);
        ByteBuffer h = ByteBuffer.allocate(16).order(order);
        time++;
        h.putInt((int) time).putInt(nanos ? 123_456_789 : 123_456).putInt(captured).putInt(packet.length);
        records.writeBytes(h.array());
        records.write(packet, 0, captured);
        return this;
    }

    public byte[] build() {
        ByteBuffer h = ByteBuffer.allocate(24).order(order);
        h.putInt(nanos ? 0xa1b23c4d : 0xa1b2c3d4).putShort((short) 2).putShort((short) 4)
                .putInt(0).putInt(0).putInt(snapLength).putInt(linkType.value());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(h.array());
        out.writeBytes(records.toByteArray());
        return out.toByteArray();
    }

    static byte[] tcpSegment(int srcPort, int dstPort, long seq, int flags, byte[] payload) {
        ByteBuffer t = ByteBuffer.allocate(20 + payload.length);
        t.putShort((short) srcPort).putShort((short) dstPort).putInt((int) seq).putInt(0)
                .put((byte) 0x50).put((byte) flags).putShort((short) 65535).putShort((short) 0).putShort((short) 0)
                .put(payload);
        return t.array();
    }

    static byte[] ip(Endpoint src, Endpoint dst, byte[] tcp) {
        if (src.address().length == 4) {
            ByteBuffer ip = ByteBuffer.allocate(20 + tcp.length);
            ip.put((byte) 0x45).put((byte) 0).putShort((short) (20 + tcp.length)).putShort((short) 1)
                    .putShort((short) 0x4000).put((byte) 64).put((byte) 6).putShort((short) 0)
                    .put(src.address()).put(dst.address());
            int sum = 0;
            for (int i = 0; i < 20; i += 2) {
                sum += ip.getShort(i) & 0xffff;
            }
            while (sum > 0xffff) {
                sum = (sum & 0xffff) + (sum >> 16);
            }
            ip.putShort(10, (short) ~sum);
            ip.position(20);
            ip.put(tcp);
            return ip.array();
        }
        ByteBuffer ip = ByteBuffer.allocate(40 + tcp.length);
        ip.putInt(0x60000000).putShort((short) tcp.length).put((byte) 6).put((byte) 64)
                .put(src.address()).put(dst.address()).put(tcp);
        return ip.array();
    }

    private byte[] link(byte[] ip, boolean v6) {
        int etherType = v6 ? 0x86dd : 0x0800;
        ByteBuffer b;
        switch (linkType) {
            case ETHERNET -> {
                b = ByteBuffer.allocate(14 + 4 * vlanTags + ip.length);
                b.put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1});
                for (int i = 0; i < vlanTags; i++) {
                    b.putShort((short) (i == 0 && vlanTags > 1 ? 0x88a8 : 0x8100)).putShort((short) (100 + i));
                }
                b.putShort((short) etherType);
            }
            case NULL -> {
                b = ByteBuffer.allocate(4 + ip.length).order(order);
                b.putInt(v6 ? nullFamilyV6 : 2);
                b.order(ByteOrder.BIG_ENDIAN);
            }
            case LOOP -> {
                b = ByteBuffer.allocate(4 + ip.length);
                b.putInt(v6 ? nullFamilyV6 : 2);
            }
            case LINUX_SLL -> {
                b = ByteBuffer.allocate(16 + ip.length);
                b.putShort((short) 0).putShort((short) 772).putShort((short) 6)
                        .put(new byte[] {2, 0, 0, 0, 0, 1, 0, 0}).putShort((short) etherType);
            }
            case LINUX_SLL2 -> {
                b = ByteBuffer.allocate(20 + ip.length);
                b.putShort((short) etherType).putShort((short) 0).putInt(1).putShort((short) 772)
                        .put((byte) 0).put((byte) 6).put(new byte[] {2, 0, 0, 0, 0, 1, 0, 0});
            }
            case RAW, IPV4, IPV6 -> b = ByteBuffer.allocate(ip.length);
            default -> throw new IllegalStateException();
        }
        b.put(ip);
        return b.array();
    }
}
