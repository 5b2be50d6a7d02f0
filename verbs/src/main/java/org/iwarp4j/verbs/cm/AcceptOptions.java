package org.iwarp4j.verbs.cm;

/**
 * Parameters of {@code rdma_accept}.
 *
 * @param privateData ULP private data of the Reply (same limits as {@link ConnectOptions#privateData()})
 * @param ird         IRD to answer, or -1 for the queue pair's (raised to the Initiator's ORD where the
 *                    queue pair allows, RFC 6581 §9.1)
 * @param ord         ORD to answer, or -1 for the queue pair's (never above the Initiator's IRD)
 */
public record AcceptOptions(byte[] privateData, int ird, int ord) {

    public AcceptOptions {
        privateData = PrivateData.check(privateData, 2);
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    public static AcceptOptions defaults() {
        return new AcceptOptions(new byte[0], -1, -1);
    }

    public static AcceptOptions withPrivateData(byte[] privateData) {
        return new AcceptOptions(privateData, -1, -1);
    }
}
