package org.iwarp4j.tools.pcap;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A classic libpcap capture file (not pcapng): either byte order, microsecond or nanosecond
 * timestamps. Layout (draft-ietf-opsawg-pcap): a 24-octet file header {@code magic, version 2.4,
 * thiszone, sigfigs, snaplen, linktype}, then records of {@code ts_sec, ts_subsec, incl_len, orig_len}
 * followed by {@code incl_len} octets.
 *
 * @param linkType the link-layer header type of every record
 * @param records  the packets, in file order
 * @param warnings things that are wrong with the file but did not stop reading it
 */
public record PcapFile(LinkType linkType, List<PcapRecord> records, List<String> warnings) {

    private static final int MAGIC_MICROS = 0xa1b2c3d4;
    private static final int MAGIC_NANOS = 0xa1b23c4d;
    private static final int PCAPNG_SECTION_HEADER = 0x0a0d0d0a;
    private static final int FILE_HEADER_LENGTH = 24;
    private static final int RECORD_HEADER_LENGTH = 16;
    /** Larger than any link's packet; a record claiming more means the file is corrupt. */
    private static final int MAX_RECORD_LENGTH = 256 * 1024;

    public PcapFile {
        records = List.copyOf(records);
        warnings = List.copyOf(warnings);
    }

    public static PcapFile parse(byte[] file) throws PcapFormatException {
        if (file.length < FILE_HEADER_LENGTH) {
            throw new PcapFormatException("not a pcap file: " + file.length
                    + " octets is shorter than the 24-octet pcap file header");
        }
        ByteBuffer buf = ByteBuffer.wrap(file).order(ByteOrder.BIG_ENDIAN);
        int magic = buf.getInt(0);
        boolean nanos;
        if (magic == MAGIC_MICROS || magic == MAGIC_NANOS) {
            nanos = magic == MAGIC_NANOS;
        } else if (Integer.reverseBytes(magic) == MAGIC_MICROS || Integer.reverseBytes(magic) == MAGIC_NANOS) {
            nanos = Integer.reverseBytes(magic) == MAGIC_NANOS;
            buf.order(ByteOrder.LITTLE_ENDIAN);
        } else if (magic == PCAPNG_SECTION_HEADER) {
            throw new PcapFormatException("this is a pcapng file; only classic pcap is supported "
                    + "(convert it with: editcap -F pcap IN.pcapng OUT.pcap)");
        } else {
            throw new PcapFormatException(String.format("not a pcap file: magic number 0x%08x", magic));
        }
        int major = Short.toUnsignedInt(buf.getShort(4));
        int minor = Short.toUnsignedInt(buf.getShort(6));
        List<String> warnings = new ArrayList<>();
        if (major != 2) {
            throw new PcapFormatException("unsupported pcap version " + major + "." + minor + " (expected 2.4)");
        }
        // The link type is the low 16 bits; the upper bits may carry FCS information (draft-ietf-opsawg-pcap §4).
        int rawLinkType = buf.getInt(20) & 0xffff;
        LinkType linkType = LinkType.of(rawLinkType).orElseThrow(() -> new PcapFormatException(
                "unsupported link type " + rawLinkType + " (supported: Ethernet 1, raw IP 101/228/229, "
                        + "Linux cooked 113/276, loopback 0/108)"));
        List<PcapRecord> records = new ArrayList<>();
        int at = FILE_HEADER_LENGTH;
        while (at < file.length) {
            int frame = records.size() + 1;
            if (file.length - at < RECORD_HEADER_LENGTH) {
                warnings.add("the capture ends inside the header of frame " + frame + " (file cut short)");
                break;
            }
            long seconds = Integer.toUnsignedLong(buf.getInt(at));
            long fraction = Integer.toUnsignedLong(buf.getInt(at + 4));
            long included = Integer.toUnsignedLong(buf.getInt(at + 8));
            long original = Integer.toUnsignedLong(buf.getInt(at + 12));
            if (included > MAX_RECORD_LENGTH) {
                throw new PcapFormatException("frame " + frame + " claims " + included
                        + " captured octets; the file is corrupt");
            }
            at += RECORD_HEADER_LENGTH;
            if (file.length - at < included) {
                warnings.add("the capture ends inside frame " + frame + " (file cut short)");
                break;
            }
            byte[] data = new byte[(int) included];
            System.arraycopy(file, at, data, 0, data.length);
            at += data.length;
            long epochNanos = seconds * 1_000_000_000L + (nanos ? fraction : fraction * 1_000L);
            records.add(new PcapRecord(frame, epochNanos, data,
                    (int) Math.min(Integer.MAX_VALUE, Math.max(original, included))));
        }
        return new PcapFile(linkType, records, warnings);
    }
}
