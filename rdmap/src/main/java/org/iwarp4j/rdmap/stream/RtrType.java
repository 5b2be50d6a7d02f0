package org.iwarp4j.rdmap.stream;

/**
 * The "Ready to Receive" message of RFC 6581 §5/§9.2 (peer-to-peer mode): the first FPDU the initiator
 * sends after an accepting MPA Reply with A=1 [MPA-74, MPA-75]. RFC 6581 only says "zero-length"; the
 * formats are those of Linux siw / cxgb4 (mpa.md §8.3, siw-interop.md §B2).
 */
public enum RtrType {
    /** B: zero-length Send, QN 0 MSN 1; consumes one receive buffer at the responder. */
    SEND,
    /** C: zero-length RDMA Write, STag 1 (non-zero; some hardware treats 0 specially), TO 0. */
    WRITE,
    /**
     * D: zero-length RDMA Read Request (QN 1 MSN 1, sink STag 0 / TO 0, size 0, source STag 1 / TO 0);
     * takes an ORD slot and is answered by a zero-length Read Response.
     */
    READ;

    /** The STag siw puts in a zero-length Write RTR and in the source of a zero-length Read RTR. */
    public static final int RTR_STAG = 1;
}
