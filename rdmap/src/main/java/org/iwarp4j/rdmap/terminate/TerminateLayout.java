package org.iwarp4j.rdmap.terminate;

/**
 * How the first word of a received Terminate header was laid out.
 *
 * <p>Linux siw declares the Terminate Control word as C bitfields ({@code layer:4, etype:4, ecode:8,
 * flag_m:1, flag_d:1, flag_r:1, ...}) inside a {@code __be32}. On a little-endian host the compiler
 * allocates bitfields from the least significant bit, so the word leaves the machine bit-mirrored
 * within its nibbles/bits: Layer in the <em>low</em> nibble of octet 0, EType in the high nibble, and
 * M/D/R as 0x01/0x02/0x04 of octet 2 (the Error Code octet is unaffected); interop/FINDINGS.md F1.
 */
public enum TerminateLayout {
    /** RFC 5040 §4.8: octet 0 = Layer&lt;&lt;4 | EType, octet 2 = M&lt;&lt;7 | D&lt;&lt;6 | R&lt;&lt;5. */
    RFC,
    /** Linux siw on little-endian hosts: octet 0 = EType&lt;&lt;4 | Layer, octet 2 = R&lt;&lt;2 | D&lt;&lt;1 | M. */
    SIW_MIRRORED
}
