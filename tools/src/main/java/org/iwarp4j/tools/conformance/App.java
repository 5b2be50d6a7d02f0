package org.iwarp4j.tools.conformance;

/** The application protocol the peer runs above RDMAP, which the tool drives to obtain buffers to aim at. */
public enum App {
    /**
     * rdma-core's rping ({@code rping -s} / {@code rping -c}, {@code iwarp rping}): 16-octet adverts
     * (u64 address, u32 STag, u32 length, big-endian) in Sends, RDMA Read then RDMA Write of the advertised
     * buffers. Gives a posted receive of 16 octets and an STag with remote read and write access.
     */
    RPING,
    /**
     * librdmacm's rdma_server / rdma_client examples ({@code iwarp rdma-server} / {@code rdma-client}): one
     * 16-octet Send each way. Gives a posted receive of 16 octets, no STag.
     */
    RDMA,
    /** Nothing known about the application: only checks that need no buffer of the peer's run. */
    GENERIC
}
