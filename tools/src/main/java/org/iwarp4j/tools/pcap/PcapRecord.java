package org.iwarp4j.tools.pcap;

/**
 * One packet record of a capture.
 *
 * @param frameNumber    1-based position in the file (what Wireshark calls the frame number)
 * @param epochNanos     capture time, nanoseconds since the epoch
 * @param data           the captured octets (possibly fewer than were on the wire)
 * @param originalLength octets the packet had on the wire
 */
public record PcapRecord(int frameNumber, long epochNanos, byte[] data, int originalLength) {

    /** Whether the capture cut the packet short (snap length). */
    public boolean truncated() {
        return data.length < originalLength;
    }
}
