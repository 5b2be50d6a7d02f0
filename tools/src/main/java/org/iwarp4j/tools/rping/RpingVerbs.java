package org.iwarp4j.tools.rping;

import org.iwarp4j.verbs.RemoteBuffer;

/**
 * The verbs calls of rping's two roles, each one rping wire action: re-post the one receive, send an
 * advert or a go-ahead, RDMA Read the peer's source, RDMA Write the peer's sink. {@link RpingSession}
 * implements it on its queue pair; {@link FaultInjectingRpingVerbs} decorates it for {@code --inject}, so
 * the protocol code itself knows nothing of faults.
 */
interface RpingVerbs {

    /** Which of the client's two buffers an advert names. */
    enum Advert { SOURCE, SINK }

    /** Posts (or re-posts) rping's single 16-octet receive. */
    void postReceive();

    /**
     * Client: sends {@code advert} for one of its buffers, {@code copies} times in one post (rping: once).
     */
    void sendAdvert(Advert which, RemoteBuffer advert, int copies);

    /** Server: sends the 16-octet go-ahead {@code copies} times in one post (rping: once). */
    void sendGoAhead(int copies);

    /** Server: RDMA Reads {@code length} octets from the peer's {@code source} into the RDMA buffer. */
    void read(RemoteBuffer source, int length);

    /** Server: RDMA Writes {@code length} octets of the RDMA buffer to the peer's {@code sink}. */
    void write(RemoteBuffer sink, int length);
}
