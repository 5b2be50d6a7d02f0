package org.iwarp4j.common;

/**
 * The Ready-To-Receive (RTR) messages of RFC 6581 peer-to-peer mode (§5, §9.2): MPA negotiates which
 * types both sides accept, one flag each in the enhanced connection data; the Initiator then sends one
 * RTR as its first FPDU (§9.3), built by RDMAP. RFC 6581 only says "zero-length"; the formats are those
 * Linux siw and Chelsio cxgb4 send.
 */
public enum RtrType {
    /** Flag B: a zero-length Send; the Responder's RDMAP takes it with a receive of its own, not an application's. */
    SEND,
    /** Flag C: a zero-length RDMA Write (STag 1, Tagged Offset 0). */
    WRITE,
    /**
     * Flag D: a zero-length RDMA Read Request, answered by a zero-length Read Response; needs a
     * Responder IRD and an Initiator ORD of at least 1.
     */
    READ
}
