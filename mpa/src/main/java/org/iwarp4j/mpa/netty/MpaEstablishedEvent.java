package org.iwarp4j.mpa.netty;

import org.iwarp4j.mpa.MpaParameters;

/**
 * Full Operation reached (RFC 5044 §7.1.2). Fired after {@link MpaStartupHandler} has replaced itself
 * with {@link FpduDecoder} and {@link FpduEncoder}, and before any inbound FPDU is passed up, so the
 * layer above can bind its DDP endpoint first (RFC 5044 §7.1: a DDP endpoint must be bound when Full
 * Operation starts).
 *
 * <p>What the layer above must do next:
 * <ul>
 *   <li>Initiator with {@code parameters.requiredTerminate() != null}: send a Terminate with Layer 2 /
 *       EType 0 / that code as its first FPDU and close (RFC 6581 §9.1, §9.3).</li>
 *   <li>Initiator in peer-to-peer mode: send the RTR of type {@code parameters.rtr()} as its first
 *       FPDU, before anything else and before telling its user "connected" (RFC 6581 §5, §9.3).</li>
 *   <li>Responder: may send right away; the encoder holds FPDUs until the first inbound FPDU (the RTR
 *       in peer-to-peer mode) has been validated (RFC 5044 §7.1.2 rule 4).</li>
 * </ul>
 *
 * @param parameters the negotiated result
 * @param sender     the allocation-free two-part send path of the installed encoder
 */
public record MpaEstablishedEvent(MpaParameters parameters, FpduSender sender) implements MpaStartupEvent {
}
