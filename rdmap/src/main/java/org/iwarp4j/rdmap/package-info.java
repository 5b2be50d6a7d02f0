/**
 * RDMAP — the RDMA Protocol (RFC 5040) and its extensions (RFC 7306: atomics, Immediate Data) over DDP.
 *
 * <ul>
 *   <li>{@link org.iwarp4j.rdmap.wire} — the opcodes, the RDMAP control field and flyweights of the
 *       RDMAP headers (Read Request, Terminate, Atomic Request/Response, Immediate Data).</li>
 *   <li>{@link org.iwarp4j.rdmap.terminate} — every Terminate Control value (Layer/EType/Code), the
 *       header rules of RFC 5040 Fig 10, the encoder and the lenient decoder (also for Linux siw's
 *       bit-mirrored control word).</li>
 *   <li>{@link org.iwarp4j.rdmap.atomic} — RFC 7306 §5.1 arithmetic and the RNIC-wide atomic executor.</li>
 *   <li>{@link org.iwarp4j.rdmap.stream} — the per-stream engine the verbs layer drives.</li>
 * </ul>
 *
 * <p>{@link org.iwarp4j.rdmap.RdmapException} is the layer's one exception type; it carries the
 * {@link org.iwarp4j.rdmap.terminate.Terminate} to send. Module dependencies: {@code rdmap → ddp} only
 * (no MPA, no Netty channels).
 */
package org.iwarp4j.rdmap;
