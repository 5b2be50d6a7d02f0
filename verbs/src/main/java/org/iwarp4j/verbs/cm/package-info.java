/**
 * The connection manager (librdmacm's {@code rdma_cm} for iWARP): listen, connect, accept, reject, the
 * MPA Request/Reply parameters (revision, CRC, markers, IRD/ORD, peer-to-peer RTR, private data), the
 * {@link org.iwarp4j.verbs.cm.CmEvent}s, and graceful/abortive disconnect.
 *
 * <p>Defaults interoperate with Linux siw (siw-interop.md): MPA Rev 2 with the enhanced block always,
 * the Responder answers within the startup timeout (unanswered requests are rejected before it ends),
 * receives posted before the Reply are in place for the first Send, the Responder sends no FPDU before
 * the peer's first (MPA holds them), FPDUs at most one MSS, a Terminate is followed by a close, FIN and
 * RST are both a normal disconnect, and a half-close from the peer tears the connection down.
 *
 * <p>What was negotiated: {@link org.iwarp4j.verbs.cm.Connection#parameters()}
 * ({@link org.iwarp4j.verbs.cm.ConnectionParameters#mpa()} holds both MPA frames as exchanged).
 */
package org.iwarp4j.verbs.cm;
