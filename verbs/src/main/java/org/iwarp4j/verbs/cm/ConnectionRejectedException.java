package org.iwarp4j.verbs.cm;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The peer rejected the connection (MPA Reply with R=1, RFC 5044 §7.1.2): the failure of
 * {@link org.iwarp4j.verbs.Rnic#connect}. RFC 6581 §9.1: the Responder's IRD/ORD are passed up on a reject too.
 */
public final class ConnectionRejectedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final byte[] privateData;
    private final OptionalInt ird;
    private final OptionalInt ord;

    /**
     * @param message     what happened
     * @param privateData the Responder's private data
     * @param ird         the Responder's IRD, empty without enhanced data
     * @param ord         the Responder's ORD, empty without enhanced data
     */
    public ConnectionRejectedException(String message, byte[] privateData, OptionalInt ird, OptionalInt ord) {
        super(message);
        this.privateData = privateData.clone();
        this.ird = Objects.requireNonNull(ird, "ird");
        this.ord = Objects.requireNonNull(ord, "ord");
    }

    /**
     * The Responder's private data (ULP part).
     *
     * @return a copy
     */
    public byte[] privateData() {
        return privateData.clone();
    }

    /**
     * The Responder's IRD from the reject.
     *
     * @return the IRD, empty without enhanced data
     */
    public OptionalInt ird() {
        return ird;
    }

    /**
     * The Responder's ORD from the reject: after an "insufficient IRD" reject, the ORD it needs.
     *
     * @return the ORD, empty without enhanced data
     */
    public OptionalInt ord() {
        return ord;
    }

    /**
     * The reject as an event.
     *
     * @param remoteAddress the Responder's address
     * @return the {@link CmEvent.Rejected} with the same values and this message as its reason
     */
    public CmEvent.Rejected toEvent(InetSocketAddress remoteAddress) {
        return new CmEvent.Rejected(remoteAddress, privateData, ird, ord, getMessage());
    }
}
