package org.iwarp4j.tools.explain;

import org.iwarp4j.tools.report.Layer;

/**
 * One entry of the output: a decoded frame or an error, with where it sits in its stream.
 *
 * @param kind   what it is
 * @param offset first octet, in the input or in its direction's stream
 * @param length octets it covers (0 for an error)
 * @param frame  first pcap frame that carried it (0 outside a capture); orders the two directions of a connection
 * @param layer  its decoded fields
 */
record Entry(Kind kind, long offset, long length, int frame, Layer layer) {

    enum Kind { MPA_REQUEST, MPA_REPLY, FPDU, ERROR }
}
