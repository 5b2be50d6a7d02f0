package org.iwarp4j.rdmap.stream;

/**
 * The send side as the parts that make messages see it: whether the stream still sends, how many segments
 * went to the lower layer and how many it took responsibility for (RFC 5040 §5.5: a Write or Send completes
 * locally only then [RDMAP-21]), and a way to say there is something new to write.
 */
interface SendProgress {

    /** Whether the stream is operational: no failure, no Terminate, not closed. */
    boolean operational();

    /** Segments handed to the lower layer since the stream began. */
    long segmentsProduced();

    /** Segments the lower layer took responsibility for, in the order they were produced. */
    long segmentsAcknowledged();

    /** Something new can be written: the lower layer hears it and calls the stream's writeNextSegment. */
    void transmitReady();
}
