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
    /**
     * perftest 4.5+0.17's servers with {@code -R} ({@code ib_write_bw}, {@code ib_read_bw}, {@code ib_send_bw},
     * {@code -q 1}; Debian 12, version "6.06"; or {@code iwarp perf write|read|send}), peer as Responder only: for
     * a check that needs something of the peer's the tool opens perftest's control connection first, exchanges its
     * messages (docs/perftest-wire.md) up to the server's {@code pingpong_dest}, and runs the check on the test
     * connection; a check that needs nothing runs on the first connection, which the server takes for its control
     * connection. Nothing in the exchange says which program runs, nor its {@code -s} and {@code -n}: the user
     * gives them ({@code --perftest}, {@code --perftest-size}, {@code --perftest-iterations}). What each gives:
     * <ul>
     *   <li>{@code ib_write_bw}: an STag with remote write access (its dest's rkey, the region
     *       [vaddr - BUFF_SIZE, vaddr + BUFF_SIZE)); no receive, no read access.
     *   <li>{@code ib_read_bw}: an STag with remote read access (and write: perftest adds it on iWARP); ECHO,
     *       its test connection's IRD being its {@code out_reads}.
     *   <li>{@code ib_send_bw}: {@code rx_depth} (512, at most {@code -n}) posted receives of {@code -s} octets;
     *       no STag (its dest names its credit word).
     * </ul>
     * ECHO needs an IRD above 0: {@code ib_write_bw}'s and {@code ib_send_bw}'s test connections have none.
     */
    PERFTEST,
    /** Nothing known about the application: only checks that need no buffer of the peer's run. */
    GENERIC
}
