/**
 * The connection manager (librdmacm's {@code rdma_cm} for iWARP): listen, connect, accept, reject, the MPA
 * Request/Reply parameters ({@link org.iwarp4j.common.MpaOptions}, IRD/ORD, private data), the
 * {@link org.iwarp4j.verbs.cm.CmEvent}s, graceful and abortive disconnect, and the
 * {@link org.iwarp4j.verbs.cm.PeerProfile} that says what to tolerate from a peer.
 *
 * <p>Who sends first: in client-server mode (the default) the Responder sends no FPDU before it received
 * the Initiator's first (RFC 5044 §7.1.2 rule 4): a server's Sends posted right after accept are held
 * until the client sends ({@link org.iwarp4j.verbs.cm.Connection#sendsHeld()}). Peer-to-peer mode
 * (RFC 6581, {@link org.iwarp4j.common.MpaOptions#peerToPeer()}) makes the Initiator send a
 * Ready-To-Receive message first, so that either side may send at once.
 */
package org.iwarp4j.verbs.cm;
