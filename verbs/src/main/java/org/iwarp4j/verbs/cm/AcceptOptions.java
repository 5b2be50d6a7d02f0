package org.iwarp4j.verbs.cm;

import java.util.OptionalInt;

/**
 * Parameters of {@code rdma_accept}.
 *
 * @param privateData ULP private data of the Reply: at most 512 octets here; when accepting, at most what the
 *                    Request's revision leaves (508 with revision 2, RFC 6581 §7) and the listener's
 *                    {@link PeerProfile#maxPdLength()} allows
 * @param ird         IRD to answer; empty: the queue pair's (raised to the Initiator's ORD where the queue pair
 *                    allows, RFC 6581 §9.1)
 * @param ord         ORD to answer; empty: the queue pair's (never above the Initiator's IRD)
 */
public record AcceptOptions(byte[] privateData, OptionalInt ird, OptionalInt ord) {

    /** Checks the private data's length and the depths' range. */
    public AcceptOptions {
        privateData = PrivateData.check(privateData, 1);
        PrivateData.checkDepth("ird", ird);
        PrivateData.checkDepth("ord", ord);
    }

    /**
     * The private data.
     *
     * @return a copy
     */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    /**
     * No private data, the queue pair's IRD and ORD.
     *
     * @return the defaults
     */
    public static AcceptOptions defaults() {
        return new AcceptOptions(new byte[0], OptionalInt.empty(), OptionalInt.empty());
    }

    /**
     * Private data, the queue pair's IRD and ORD.
     *
     * @param privateData the Reply's private data
     * @return the options
     */
    public static AcceptOptions withPrivateData(byte[] privateData) {
        return new AcceptOptions(privateData, OptionalInt.empty(), OptionalInt.empty());
    }

    /**
     * These options with another IRD (the ORD unchanged).
     *
     * @param newIrd IRD to answer
     * @return a copy
     */
    public AcceptOptions withIrd(int newIrd) {
        return new AcceptOptions(privateData, OptionalInt.of(newIrd), ord);
    }

    /**
     * These options with another ORD (the IRD unchanged).
     *
     * @param newOrd ORD to answer
     * @return a copy
     */
    public AcceptOptions withOrd(int newOrd) {
        return new AcceptOptions(privateData, ird, OptionalInt.of(newOrd));
    }

    /**
     * These options with another IRD and ORD.
     *
     * @param newIrd IRD to answer
     * @param newOrd ORD to answer
     * @return a copy
     */
    public AcceptOptions withIrdOrd(int newIrd, int newOrd) {
        return new AcceptOptions(privateData, OptionalInt.of(newIrd), OptionalInt.of(newOrd));
    }
}
