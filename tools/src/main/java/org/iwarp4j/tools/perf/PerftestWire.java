package org.iwarp4j.tools.perf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The octets of perftest's control exchange with {@code -R} (rdma_cm), as Debian 12's perftest 4.5+0.17 sends them
 * (docs/perftest-wire.md; taken from its sources at tag v4.5-0.17 and from siw-to-siw captures in the lab). Every
 * message is one Send on the control connection, at most {@link #MAX_MESSAGE} octets (perftest's receive buffer is
 * one {@code pingpong_dest}). Pure: no verbs, no sockets; every decoder checks the length and the values it must
 * bound before anyone allocates for them. Public for {@code iwarp conformance --app perftest}, which drives the same
 * exchange over its own scripted wire.
 */
public final class PerftestWire {

    /** The version perftest 4.5+0.17 puts in its 16-octet version message (its configure.ac's, not the package's). */
    public static final String VERSION = "6.06";
    public static final int VERSION_LENGTH = 16;
    /** The oldest version 4.5+0.17 pairs with ({@code check_version_compatibility}). */
    static final double MIN_VERSION = 5.70;
    /**
     * The newest we pair with: later perftests exchange more (a 64-octet {@code pingpong_dest}, a parameter block
     * with a raw {@code ibv_device_attr}), so a later peer is refused by name instead of failing somewhere later.
     */
    static final double MAX_VERSION = 6.06;
    public static final int INT_LENGTH = 4;
    /** The MTU message: the decimal {@code enum ibv_mtu} with its NUL, two octets since perftest 5.31. */
    public static final int MTU_LENGTH = 2;
    /** {@code struct pingpong_dest} of 4.5+0.17 on LP64 (upstream 6.x adds a field: 64 octets). */
    public static final int DEST_LENGTH = 56;
    /** Each field of a bandwidth report is a message of its own. */
    static final int REPORT_FIELD_LENGTH = 8;
    static final int MAX_MESSAGE = DEST_LENGTH;
    /** The largest cycle buffer (a page size) and cache line a peer may announce: we size buffers by them. */
    public static final int MAX_CYCLE_BUFFER = 1 << 20;
    static final int MAX_CACHE_LINE = 4096;
    /** {@code IBV_MTU_1024}: what siw reports on a 1500-octet Ethernet (perftest prints 1024[B]). */
    public static final int IBV_MTU_1024 = 3;

    private PerftestWire() {}

    /** The version message: the string, NUL-padded to 16 octets. */
    public static byte[] version(String version) {
        byte[] ascii = version.getBytes(StandardCharsets.US_ASCII);
        if (ascii.length >= VERSION_LENGTH) {
            throw new IllegalArgumentException("perftest version too long: " + version);
        }
        return Arrays.copyOf(ascii, VERSION_LENGTH);
    }

    /** The peer's version string (up to its first NUL); refuses a wrong length or a non-printable octet. */
    public static String decodeVersion(byte[] m) {
        expect(m, VERSION_LENGTH, "version");
        int end = 0;
        while (end < m.length && m[end] != 0) {
            if (m[end] < 0x20 || m[end] > 0x7e) {
                throw new PerftestException("perftest version message has a non-printable octet 0x"
                        + Integer.toHexString(m[end] & 0xff) + " at " + end);
            }
            end++;
        }
        if (end == m.length) {
            throw new PerftestException("perftest version message has no NUL in its 16 octets");
        }
        return new String(m, 0, end, StandardCharsets.US_ASCII);
    }

    /** C's {@code atof} of a version string: its leading digits and one dot, 0 if none. */
    static double versionNumber(String v) {
        int i = 0;
        boolean dot = false;
        while (i < v.length() && (Character.isDigit(v.charAt(i)) || (v.charAt(i) == '.' && !dot))) {
            dot |= v.charAt(i) == '.';
            i++;
        }
        String n = v.substring(0, i);
        return n.isEmpty() || n.equals(".") ? 0 : Double.parseDouble(n);
    }

    /** Refuses a peer whose exchange differs from 4.5+0.17's, naming both versions. */
    public static void checkVersion(String ours, String theirs) {
        double v = versionNumber(theirs);
        if (v < MIN_VERSION || v > MAX_VERSION) {
            throw new PerftestException("the peer speaks perftest version \"" + theirs + "\", we speak \"" + ours
                    + "\" (Debian 12's perftest 4.5+0.17): we pair with 5.70..6.06"
                    + " (docs/perftest-wire.md: what later ones change)");
        }
    }

    /** A 4-octet int in network byte order ({@code hton_int}): the cycle buffer and the cache line size. */
    public static byte[] int32(int v) {
        return ByteBuffer.allocate(INT_LENGTH).putInt(0, v).array();
    }

    static int decodeInt32(byte[] m, String what) {
        expect(m, INT_LENGTH, what);
        return ByteBuffer.wrap(m).getInt(0);
    }

    /** The peer's cycle buffer (its page size), bounded: the test buffers are twice the larger of it and a size. */
    public static int decodeCycleBuffer(byte[] m) {
        return octets(decodeInt32(m, "cycle buffer"), "cycle buffer", MAX_CYCLE_BUFFER);
    }

    public static int decodeCacheLine(byte[] m) {
        return octets(decodeInt32(m, "cache line size"), "cache line", MAX_CACHE_LINE);
    }

    /** {@code v}, the peer's {@code what} in octets, refused unless it is 1..{@code max}. */
    private static int octets(int v, String what, int max) {
        if (v < 1 || v > max) {
            throw new PerftestException("the peer's " + what + " is " + Integer.toUnsignedString(v) + " octets; 1.."
                    + max);
        }
        return v;
    }

    /** The MTU message: {@code sprintf("%d")} of an {@code enum ibv_mtu} (1..5), sent as its first two octets. */
    public static byte[] mtu(int ibvMtu) {
        if (ibvMtu < 1 || ibvMtu > 5) {
            throw new IllegalArgumentException("enum ibv_mtu is 1..5: " + ibvMtu);
        }
        return new byte[] {(byte) ('0' + ibvMtu), 0};
    }

    /** The peer's {@code enum ibv_mtu}, or -1 when it is not one (perftest then keeps its own). */
    public static int decodeMtu(byte[] m) {
        expect(m, MTU_LENGTH, "MTU");
        int d = m[0] - '0';
        return d >= 1 && d <= 5 && m[1] == 0 ? d : -1;
    }

    /** The octets an {@code enum ibv_mtu} stands for: 256 << (mtu - 1). */
    static int mtuOctets(int ibvMtu) {
        return 256 << (ibvMtu - 1);
    }

    /**
     * perftest's {@code struct pingpong_dest}, 56 octets, each field in network byte order as
     * {@code rdma_write_keys} converts it ({@code HAVE_ENDIAN}, which Debian's build has):
     *
     * <pre>
     *  0                   1                   2                   3
     *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |                              LID                              |  0
     * |                        outstanding reads                      |  4
     * |                       queue pair number                       |  8
     * |                              PSN                              | 12
     * |                          rkey (STag)                          | 16
     * |                   padding (C alignment, zero)                 | 20
     * |                     vaddr (Tagged Offset), 64 bits            | 24
     * |                                                               |
     * |                          GID, 16 octets                       | 32
     * |                              ...                              |
     * |                              SRQN                             | 48
     * |                           GID index                           | 52
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * </pre>
     *
     * On iWARP the LID is 0 and the PSN a random number nobody uses; rkey and vaddr name the peer's test buffer
     * (in {@code ib_send_bw}: its credit word).
     */
    public record Dest(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, byte[] gid, int srqn,
                       int gidIndex) {

        static final int LID = 0;
        static final int OUT_READS = 4;
        static final int QPN = 8;
        static final int PSN = 12;
        static final int RKEY = 16;
        static final int VADDR = 24;
        static final int GID = 32;
        static final int GID_LENGTH = 16;
        static final int SRQN = 48;
        static final int GID_INDEX = 52;
        /** The dest of the handshakes that only synchronise: all zeros, as perftest's memset leaves it. */
        public static final Dest ZERO = new Dest(0, 0, 0, 0, 0, 0, new byte[GID_LENGTH], 0, 0);

        public Dest {
            gid = gid.clone();
            if (gid.length != GID_LENGTH) {
                throw new IllegalArgumentException("a GID has 16 octets, not " + gid.length);
            }
        }

        @Override
        public byte[] gid() {
            return gid.clone();
        }

        Dest withBuffer(int newRkey, long newVaddr) {
            return new Dest(lid, outReads, qpn, psn, newRkey, newVaddr, gid, srqn, gidIndex);
        }

        public byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(DEST_LENGTH);
            b.putInt(LID, lid).putInt(OUT_READS, outReads).putInt(QPN, qpn).putInt(PSN, psn).putInt(RKEY, rkey)
                    .putLong(VADDR, vaddr).put(GID, gid).putInt(SRQN, srqn).putInt(GID_INDEX, gidIndex);
            return b.array();
        }

        public static Dest decode(byte[] m) {
            expect(m, DEST_LENGTH, "pingpong_dest");
            ByteBuffer b = ByteBuffer.wrap(m);
            byte[] gid = Arrays.copyOfRange(m, GID, GID + GID_LENGTH);
            return new Dest(b.getInt(LID), b.getInt(OUT_READS), b.getInt(QPN), b.getInt(PSN), b.getInt(RKEY),
                    b.getLong(VADDR), gid, b.getInt(SRQN), b.getInt(GID_INDEX));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Dest d && lid == d.lid && outReads == d.outReads && qpn == d.qpn && psn == d.psn
                    && rkey == d.rkey && vaddr == d.vaddr && Arrays.equals(gid, d.gid) && srqn == d.srqn
                    && gidIndex == d.gidIndex;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(vaddr) * 31 + qpn;
        }

        @Override
        public String toString() {
            return String.format("Dest[qpn 0x%x, out_reads %d, rkey 0x%08x, vaddr 0x%x]", qpn, outReads, rkey, vaddr);
        }
    }

    /**
     * The report of a bandwidth test ({@code struct bw_report_data}, {@code xchg_bw_reports}): five messages of 8
     * octets, each in network byte order — size, iterations (64 bits from version 5.33 on), peak and average
     * bandwidth (IEEE 754 doubles in the sender's unit: MB/sec of 2^20 octets, or Gb/sec with
     * {@code --report_gbits}) and the message rate (Mpps).
     */
    record BwReport(long size, long iterations, double bwPeak, double bwAvg, double msgRateMpps) {

        List<byte[]> encode() {
            return List.of(u64(size), u64(iterations), u64(Double.doubleToRawLongBits(bwPeak)),
                    u64(Double.doubleToRawLongBits(bwAvg)), u64(Double.doubleToRawLongBits(msgRateMpps)));
        }

        /** The five messages; refuses a size or an iteration count no test of ours could have run. */
        static BwReport decode(List<byte[]> m) {
            if (m.size() != 5) {
                throw new IllegalArgumentException("a bandwidth report is 5 messages, not " + m.size());
            }
            long size = decodeU64(m.get(0), "report size");
            long iters = decodeU64(m.get(1), "report iterations");
            if (size < 0 || size > PerfOptions.MAX_SIZE) {
                throw new PerftestException("the peer reports message size " + Long.toUnsignedString(size)
                        + "; 0.." + PerfOptions.MAX_SIZE);
            }
            if (iters < 0) {
                throw new PerftestException("the peer reports " + Long.toUnsignedString(iters) + " iterations");
            }
            return new BwReport(size, iters, Double.longBitsToDouble(decodeU64(m.get(2), "report peak")),
                    Double.longBitsToDouble(decodeU64(m.get(3), "report average")),
                    Double.longBitsToDouble(decodeU64(m.get(4), "report message rate")));
        }
    }

    static byte[] u64(long v) {
        return ByteBuffer.allocate(REPORT_FIELD_LENGTH).putLong(0, v).array();
    }

    static long decodeU64(byte[] m, String what) {
        expect(m, REPORT_FIELD_LENGTH, what);
        return ByteBuffer.wrap(m).getLong(0);
    }

    private static void expect(byte[] m, int length, String what) {
        if (m.length != length) {
            throw new PerftestException("perftest " + what + " message is " + m.length + " octets, not " + length
                    + (m.length == 64 && length == DEST_LENGTH ? " (a perftest 6.x peer? see docs/perftest-wire.md)"
                    : ""));
        }
    }
}
