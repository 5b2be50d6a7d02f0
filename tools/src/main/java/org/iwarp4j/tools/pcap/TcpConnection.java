package org.iwarp4j.tools.pcap;

import java.util.Optional;

/**
 * One TCP connection of a capture, both directions reassembled.
 *
 * @param firstFrame  the pcap frame of its first packet
 * @param lastFrame   the pcap frame of its last packet
 * @param opener      the side that sent the SYN without ACK (the active opener), if captured
 * @param first       the direction whose sender sent the connection's first captured packet
 *                    (the opener's, when the SYN was captured)
 * @param second      the other direction
 */
public record TcpConnection(int firstFrame, int lastFrame, Optional<Endpoint> opener, HalfStream first,
        HalfStream second) {

    /** The direction sent by {@code sender}. */
    public HalfStream from(Endpoint sender) {
        if (first.source().equals(sender)) {
            return first;
        }
        if (second.source().equals(sender)) {
            return second;
        }
        throw new IllegalArgumentException(sender + " is not an end of this connection");
    }

    /** The direction sent to {@code sender}. */
    public HalfStream to(Endpoint sender) {
        return from(sender) == first ? second : first;
    }
}
