package org.iwarp4j.tools.rping;

/**
 * rping's {@code enum test_state}, with rping's numbers: they appear in its messages ("wait for
 * RDMA_READ_ADV state 10" is what a server prints when the client disconnects), so ours match.
 */
enum RpingState {
    IDLE(1), CONNECT_REQUEST(2), ADDR_RESOLVED(3), ROUTE_RESOLVED(4), CONNECTED(5), RDMA_READ_ADV(6),
    RDMA_READ_COMPLETE(7), RDMA_WRITE_ADV(8), RDMA_WRITE_COMPLETE(9), DISCONNECTED(10), ERROR(11);

    final int number;

    RpingState(int number) {
        this.number = number;
    }
}
