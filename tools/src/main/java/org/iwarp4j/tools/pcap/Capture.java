package org.iwarp4j.tools.pcap;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A capture file taken apart into TCP connections.
 *
 * @param file        the file as read: its link type, how many records, its problems (not the records: each is
 *                    dropped once its TCP segment is taken out)
 * @param connections every TCP connection, in the order of its first packet
 * @param skipped     packets that carried no usable TCP segment, and why
 */
public record Capture(PcapFile.Scanned file, List<TcpConnection> connections, List<PacketDecoder.Skipped> skipped) {

    public Capture {
        connections = List.copyOf(connections);
        skipped = List.copyOf(skipped);
    }

    public static Capture read(byte[] pcap) throws PcapFormatException {
        try {
            return read(new ByteArrayInputStream(pcap));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not from an array
        }
    }

    /**
     * Reads a capture file from {@code in} (to its end, not closed) record by record: what is kept is each
     * connection's reassembled octets, not the file and not its records.
     */
    public static Capture read(InputStream in) throws PcapFormatException, IOException {
        TcpReassembler reassembler = new TcpReassembler();
        List<PacketDecoder.Skipped> skipped = new ArrayList<>();
        PcapFile.Scanned file = PcapFile.scan(in, (linkType, r) -> {
            PacketDecoder.Result result = PacketDecoder.decode(linkType, r);
            if (result instanceof PacketDecoder.Segment s) {
                reassembler.add(s.segment());
            } else {
                skipped.add((PacketDecoder.Skipped) result);
            }
        });
        return new Capture(file, reassembler.finish(), skipped);
    }
}
