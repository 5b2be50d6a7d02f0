package org.iwarp4j.tools.pcap;

/** The file is not a capture this reader understands (not classic libpcap, unknown link type, corrupt header). */
public final class PcapFormatException extends Exception {
    public PcapFormatException(String message) {
        super(message);
    }
}
