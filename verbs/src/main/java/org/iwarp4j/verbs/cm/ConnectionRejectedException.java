package org.iwarp4j.verbs.cm;

/**
 * The peer rejected the connection (MPA Reply with R=1, RFC 5044 §7.1.2): {@link CmEvent#REJECTED}.
 * RFC 6581 §9.1: the Responder's IRD/ORD are passed up on a reject too.
 */
public final class ConnectionRejectedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final byte[] privateData;
    private final int ird;
    private final int ord;

    public ConnectionRejectedException(String message, byte[] privateData, int ird, int ord) {
        super(message);
        this.privateData = privateData.clone();
        this.ird = ird;
        this.ord = ord;
    }

    /** The Responder's private data (ULP part). */
    public byte[] privateData() {
        return privateData.clone();
    }

    /** Responder IRD from the reject, -1 without enhanced data. */
    public int ird() {
        return ird;
    }

    /** Responder ORD from the reject (the ORD it needs after an "insufficient IRD" reject), -1 without enhanced data. */
    public int ord() {
        return ord;
    }
}
