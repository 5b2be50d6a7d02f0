package org.iwarp4j.oracle;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * An MPA Request or Reply frame as the test peer sees it (RFC 5044 §7.1.1, RFC 6581 §6), decoded field
 * by field with no validation, so that tests can look at (and build) malformed frames too. Independent of
 * the {@code mpa} module.
 *
 * <pre>
 * octets 0-15  Key "MPA ID Req Frame" / "MPA ID Rep Frame"
 * octet  16    M(0x80) C(0x40) R(0x20) S(0x10, RFC 6581) Res(0x0F)
 * octet  17    Rev
 * octets 18-19 PD_Length (big-endian)
 * octets 20-   Private Data (with S=1 and Rev ≥ 2 it starts with the 4-octet enhanced data)
 * </pre>
 *
 * @param key         the 16 key octets as received
 * @param flags       octet 16
 * @param revision    octet 17
 * @param pdLength    the PD_Length field
 * @param privateData the Private Data octets present (normally PD_Length of them)
 */
public record StartupFrame(byte[] key, int flags, int revision, int pdLength, byte[] privateData) {

    /** RFC 5044 §7.1.1: the Request key. */
    public static final byte[] REQUEST_KEY = "MPA ID Req Frame".getBytes(StandardCharsets.US_ASCII);
    /** RFC 5044 §7.1.1: the Reply key. */
    public static final byte[] REPLY_KEY = "MPA ID Rep Frame".getBytes(StandardCharsets.US_ASCII);
    /** Key, flags, Rev and PD_Length. */
    public static final int HEADER_LENGTH = 20;

    public static final int M = 0x80;
    public static final int C = 0x40;
    public static final int R = 0x20;
    public static final int S = 0x10;
    public static final int RES = 0x0F;

    /**
     * The RFC 6581 §9 enhanced connection data: {@code A|B|IRD(14)} and {@code C|D|ORD(14)}, big-endian.
     *
     * @param peerToPeer A
     * @param sendRtr    B, zero-length Send RTR
     * @param ird        14-bit IRD (0x3FFF = no automatic negotiation)
     * @param writeRtr   C, zero-length RDMA Write RTR
     * @param readRtr    D, zero-length RDMA Read RTR
     * @param ord        14-bit ORD
     */
    public record Enhanced(boolean peerToPeer, boolean sendRtr, int ird, boolean writeRtr, boolean readRtr, int ord) {
        public byte[] toBytes() {
            int w1 = (peerToPeer ? 0x8000 : 0) | (sendRtr ? 0x4000 : 0) | (ird & 0x3FFF);
            int w2 = (writeRtr ? 0x8000 : 0) | (readRtr ? 0x4000 : 0) | (ord & 0x3FFF);
            return new byte[] {(byte) (w1 >>> 8), (byte) w1, (byte) (w2 >>> 8), (byte) w2};
        }

        static Enhanced decode(byte[] b) {
            int w1 = ((b[0] & 0xFF) << 8) | (b[1] & 0xFF);
            int w2 = ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
            return new Enhanced((w1 & 0x8000) != 0, (w1 & 0x4000) != 0, w1 & 0x3FFF,
                    (w2 & 0x8000) != 0, (w2 & 0x4000) != 0, w2 & 0x3FFF);
        }
    }

    /**
     * Decodes a frame from the start of {@code octets} (at least 20 octets; Private Data as far as present
     * and PD_Length allows).
     */
    public static StartupFrame parse(byte[] octets) {
        if (octets.length < HEADER_LENGTH) {
            throw new IllegalArgumentException("an MPA frame has at least 20 octets, got " + octets.length);
        }
        int pdLength = ((octets[18] & 0xFF) << 8) | (octets[19] & 0xFF);
        int present = Math.min(pdLength, octets.length - HEADER_LENGTH);
        return new StartupFrame(Arrays.copyOf(octets, 16), octets[16] & 0xFF, octets[17] & 0xFF, pdLength,
                Arrays.copyOfRange(octets, HEADER_LENGTH, HEADER_LENGTH + present));
    }

    public boolean isRequest() {
        return Arrays.equals(key, REQUEST_KEY);
    }

    public boolean isReply() {
        return Arrays.equals(key, REPLY_KEY);
    }

    public boolean markers() {
        return (flags & M) != 0;
    }

    public boolean crc() {
        return (flags & C) != 0;
    }

    public boolean rejected() {
        return (flags & R) != 0;
    }

    /** The S bit (RFC 6581 §6); a reserved bit in RFC 5044. */
    public boolean enhancedFlag() {
        return (flags & S) != 0;
    }

    public int reservedBits() {
        return flags & RES;
    }

    /** Frame length: 20 + Private Data present. */
    public int length() {
        return HEADER_LENGTH + privateData.length;
    }

    /** The enhanced data when S=1, Rev ≥ 2 and at least 4 PD octets are present; else null. */
    public Enhanced enhanced() {
        return enhancedFlag() && revision >= 2 && privateData.length >= 4
                ? Enhanced.decode(Arrays.copyOf(privateData, 4)) : null;
    }

    /** The ULP part of the Private Data (after the enhanced data, if any). */
    public byte[] ulpPrivateData() {
        return enhanced() != null ? Arrays.copyOfRange(privateData, 4, privateData.length) : privateData.clone();
    }

    /** The frame's octets (PD_Length field as recorded, Private Data as present). */
    public byte[] toBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(key);
        out.write(flags);
        out.write(revision);
        out.write(pdLength >>> 8);
        out.write(pdLength);
        out.writeBytes(privateData);
        return out.toByteArray();
    }

    @Override
    public String toString() {
        String k = isRequest() ? "Request" : isReply() ? "Reply" : "bad key \"" + printable(key) + "\"";
        Enhanced e = enhanced();
        return "MPA " + k + " M=" + bit(markers()) + " C=" + bit(crc()) + " R=" + bit(rejected()) + " S="
                + bit(enhancedFlag()) + " Res=0x" + Integer.toHexString(reservedBits()) + " Rev=" + revision
                + " PD_Length=" + pdLength + (e != null ? " " + e : "")
                + (privateData.length > 0 ? " pd=" + HexFormat.of().formatHex(privateData) : "");
    }

    private static int bit(boolean b) {
        return b ? 1 : 0;
    }

    private static String printable(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(x >= 0x20 && x < 0x7F ? (char) x : '.');
        }
        return sb.toString();
    }

    /** A Request builder: Rev 1, all flags 0, no Private Data. */
    public static Builder request() {
        return new Builder(REQUEST_KEY);
    }

    /** A Reply builder: Rev 1, all flags 0, no Private Data. */
    public static Builder reply() {
        return new Builder(REPLY_KEY);
    }

    /** Builds frames, well-formed or not: every field can be set freely. */
    public static final class Builder {
        private byte[] key;
        private int flags;
        private int revision = 1;
        private byte[] privateData = new byte[0];
        private Enhanced enhanced;
        private int pdLengthField = -1;

        private Builder(byte[] key) {
            this.key = key.clone();
        }

        /** Replaces the 16 key octets (for bad-key tests). */
        public Builder key(byte[] k) {
            key = k.clone();
            return this;
        }

        public Builder markers(boolean v) {
            return flag(M, v);
        }

        public Builder crc(boolean v) {
            return flag(C, v);
        }

        public Builder rejected(boolean v) {
            return flag(R, v);
        }

        /** The S bit alone (see {@link #enhanced(Enhanced)} to add the data). */
        public Builder enhancedFlag(boolean v) {
            return flag(S, v);
        }

        public Builder reservedBits(int v) {
            flags = (flags & ~RES) | (v & RES);
            return this;
        }

        public Builder revision(int v) {
            revision = v;
            return this;
        }

        /** S=1, Rev 2 and the enhanced data in front of the ULP private data. */
        public Builder enhanced(Enhanced e) {
            enhanced = e;
            flag(S, true);
            if (revision < 2) {
                revision = 2;
            }
            return this;
        }

        /** The ULP private data (after the enhanced data, if any). */
        public Builder privateData(byte[] pd) {
            privateData = pd.clone();
            return this;
        }

        /** Writes this PD_Length instead of the true length (for mismatch tests). */
        public Builder pdLengthField(int v) {
            pdLengthField = v;
            return this;
        }

        private Builder flag(int mask, boolean v) {
            flags = v ? flags | mask : flags & ~mask;
            return this;
        }

        public StartupFrame build() {
            byte[] pd = privateData;
            if (enhanced != null) {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.writeBytes(enhanced.toBytes());
                b.writeBytes(privateData);
                pd = b.toByteArray();
            }
            return new StartupFrame(key.clone(), flags, revision, pdLengthField >= 0 ? pdLengthField : pd.length, pd);
        }

        public byte[] toBytes() {
            return build().toBytes();
        }
    }
}
