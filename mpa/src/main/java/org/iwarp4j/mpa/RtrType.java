package org.iwarp4j.mpa;

/**
 * The Ready-To-Receive (RTR) message types of RFC 6581 §5, §9.2, each negotiated by one flag of the
 * enhanced connection data. MPA only negotiates the type; the RTR itself is an RDMAP message built
 * and sent by the layer above as the Initiator's first FPDU (RFC 6581 §9.3).
 */
public enum RtrType {
    /** Flag B: zero-length Send ("FULPDU Send"). */
    SEND,
    /** Flag C: zero-length RDMA Write. */
    WRITE,
    /** Flag D: zero-length RDMA Read (needs Responder IRD ≥ 1 and Initiator ORD ≥ 1). */
    READ
}
