package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.tools.report.Layer;

/**
 * One entry of the output: a decoded frame or an error, with where it sits in its stream.
 *
 * @param kind   what it is
 * @param offset first octet, in the input or in its direction's stream
 * @param length octets it covers (0 for an error)
 * @param frame  first pcap frame that carried it (0 outside a capture); orders the two directions of a connection
 * @param layer  its decoded fields
 * @param fpdu   for an FPDU: the DDP segment it carries, for the upper layers; otherwise {@code null}
 */
record Entry(Kind kind, long offset, long length, int frame, Layer layer, Segment fpdu) {

    enum Kind { MPA_REQUEST, MPA_REPLY, FPDU, ERROR }

    /**
     * The ULPDU of an FPDU: one DDP segment.
     *
     * @param ulpdu     its octets, markers removed: a read-only view of the dissected FPDU's own (no copy)
     * @param delivered whether MPA hands it to DDP (CRC valid, no MPA error before it in its direction)
     * @param origin    the direction it travels in
     */
    record Segment(ByteBuf ulpdu, boolean delivered, Origin origin) {}

    Entry(Kind kind, long offset, long length, int frame, Layer layer) {
        this(kind, offset, length, frame, layer, null);
    }
}
