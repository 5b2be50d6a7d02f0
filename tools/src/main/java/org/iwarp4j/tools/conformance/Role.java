package org.iwarp4j.tools.conformance;

/** Which side of MPA startup the peer under test plays (RFC 5044 §7.1). */
public enum Role {
    /** The peer listens and answers our MPA Request (e.g. {@code rping -s}, {@code rdma_server}); we connect. */
    RESPONDER,
    /** The peer connects to us and sends the MPA Request (e.g. {@code rping -c}, {@code rdma_client}); we listen. */
    INITIATOR
}
