/**
 * Direct Data Placement over Reliable Transports (RFC 5041).
 *
 * <p>DDP runs over any framed lower layer (RFC 5041 §1, §3): this module knows nothing of MPA or of
 * Netty channels. It consumes received DDP segments (one {@link io.netty.buffer.ByteBuf} = one ULPDU
 * handed up by the lower layer) and produces segments for a small lower-layer interface.
 *
 * <ul>
 *   <li>{@link org.iwarp4j.ddp.header} — flyweights over the DDP control field and the tagged (14 octets)
 *       and untagged (18 octets) headers.</li>
 *   <li>{@link org.iwarp4j.ddp.send} — segmentation of tagged and untagged messages (RFC 5041 §5.2),
 *       segment by segment, into a {@link org.iwarp4j.ddp.send.LlpSegmentWriter}.</li>
 *   <li>{@link org.iwarp4j.ddp.receive} — the receive path: header checks (RFC 5041 §7.1), tagged and
 *       untagged placement, in-order delivery (RFC 5041 §5.3, §5.4) and the listener towards the ULP.</li>
 *   <li>{@link org.iwarp4j.ddp.memory} — what the layers above implement: registered tagged buffers
 *       (looked up by STag) and posted untagged buffers.</li>
 * </ul>
 *
 * <p>Every detected error is a {@link org.iwarp4j.ddp.DdpException} carrying the Terminate layer (1),
 * error type and code of RFC 5041 §7.2 plus the offending DDP header, so the ULP can build the Terminate
 * message mechanically.
 *
 * <p>Threading: one DDP stream lives on one event loop; none of these classes is thread-safe.
 */
package org.iwarp4j.ddp;
