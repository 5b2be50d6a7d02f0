/**
 * RDMAP on the wire (RFC 5040 §4, RFC 7306 §4–§6): {@link org.iwarp4j.rdmap.wire.RdmapOpcode} with the T
 * flag, queue number and header of each opcode; {@link org.iwarp4j.rdmap.wire.RdmapControl} (octet 1 of
 * every DDP header); flyweights with {@code *_OFFSET} constants for the Read Request (28 octets),
 * Terminate (4–52), Atomic Request (52), Atomic Response (12) and Immediate Data (8) headers. All
 * fields big-endian; offsets relative to the RDMAP header, i.e. add 18 (untagged DDP header) for the
 * ULPDU offset and 20 for the FPDU offset.
 */
package org.iwarp4j.rdmap.wire;
