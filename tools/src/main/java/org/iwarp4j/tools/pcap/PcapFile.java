package org.iwarp4j.tools.pcap;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

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

    /**
     * What a pass over a capture file found besides its records.
     *
     * @param linkType the link-layer header type of every record
     * @param records  how many records the file holds
     * @param warnings things that are wrong with the file but did not stop reading it
     */
    public record Scanned(LinkType linkType, int records, List<String> warnings) {
        public Scanned {
            warnings = List.copyOf(warnings);
        }
    }

    public static PcapFile parse(byte[] file) throws PcapFormatException {
        List<PcapRecord> records = new ArrayList<>();
        Scanned scanned;
        try {
            scanned = scan(new ByteArrayInputStream(file), (type, r) -> records.add(r));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not from an array
        }
        return new PcapFile(scanned.linkType(), records, scanned.warnings());
    }

    /**
     * Reads a capture file record by record, handing each to {@code each} with the file's link type and keeping
     * none: a file of any size is read in the memory of one record. Same checks and warnings as
     * {@link #parse(byte[])}.
     *
     * @param in the file from its first octet (read to its end, not closed)
     */
    public static Scanned scan(InputStream in, BiConsumer<LinkType, PcapRecord> each)
            throws PcapFormatException, IOException {
        byte[] fileHeader = in.readNBytes(FILE_HEADER_LENGTH);
        if (fileHeader.length < FILE_HEADER_LENGTH) {
            throw new PcapFormatException("not a pcap file: " + fileHeader.length
                    + " octets is shorter than the 24-octet pcap file header");
        }
        ByteBuffer buf = ByteBuffer.wrap(fileHeader).order(ByteOrder.BIG_ENDIAN);
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
        ByteBuffer header = ByteBuffer.allocate(RECORD_HEADER_LENGTH).order(buf.order());
        int records = 0;
        while (true) {
            int frame = records + 1;
            int got = in.readNBytes(header.array(), 0, RECORD_HEADER_LENGTH);
            if (got == 0) {
                break;
            }
            if (got < RECORD_HEADER_LENGTH) {
                warnings.add("the capture ends inside the header of frame " + frame + " (file cut short)");
                break;
            }
            long seconds = Integer.toUnsignedLong(header.getInt(0));
            long fraction = Integer.toUnsignedLong(header.getInt(4));
            long included = Integer.toUnsignedLong(header.getInt(8));
            long original = Integer.toUnsignedLong(header.getInt(12));
            if (included > MAX_RECORD_LENGTH) {
                throw new PcapFormatException("frame " + frame + " claims " + included
                        + " captured octets; the file is corrupt");
            }
            byte[] data = in.readNBytes((int) included);
            if (data.length < included) {
                warnings.add("the capture ends inside frame " + frame + " (file cut short)");
                break;
            }
            long epochNanos = seconds * 1_000_000_000L + (nanos ? fraction : fraction * 1_000L);
            records++;
            each.accept(linkType, new PcapRecord(frame, epochNanos, data,
                    (int) Math.min(Integer.MAX_VALUE, Math.max(original, included))));
        }
        return new Scanned(linkType, records, warnings);
    }
}
