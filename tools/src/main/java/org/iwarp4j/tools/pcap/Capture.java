package org.iwarp4j.tools.pcap;

import java.util.ArrayList;
import java.util.List;

/**
 * A capture file taken apart into TCP connections.
 *
 * @param file        the file as read
 * @param connections every TCP connection, in the order of its first packet
 * @param skipped     packets that carried no usable TCP segment, and why
 */
public record Capture(PcapFile file, List<TcpConnection> connections, List<PacketDecoder.Skipped> skipped) {

    public Capture {
        connections = List.copyOf(connections);
        skipped = List.copyOf(skipped);
    }

    public static Capture read(byte[] pcap) throws PcapFormatException {
        PcapFile file = PcapFile.parse(pcap);
        TcpReassembler reassembler = new TcpReassembler();
        List<PacketDecoder.Skipped> skipped = new ArrayList<>();
        for (PcapRecord r : file.records()) {
            PacketDecoder.Result result = PacketDecoder.decode(file.linkType(), r);
            if (result instanceof PacketDecoder.Segment s) {
                reassembler.add(s.segment());
            } else {
                skipped.add((PacketDecoder.Skipped) result);
            }
        }
        return new Capture(file, reassembler.connections(), skipped);
    }
}
