/**
 * The oracle: an independent, deliberately plain codec of the iWARP wire formats, written from the RFCs and
 * sharing no code with the stack (modules {@code mpa}, {@code ddp}, {@code rdmap}), so that the stack and
 * any other implementation can be measured against it.
 *
 * <ul>
 *   <li>MPA (RFC 5044, RFC 6581): {@link org.iwarp4j.oracle.StartupFrame} (Request/Reply frames and the
 *       enhanced IRD/ORD block), {@link org.iwarp4j.oracle.FpduFraming} (FPDUs: length, pad, markers, CRC32c),
 *       {@link org.iwarp4j.oracle.FpduStreamDecoder} (a stream of FPDUs taken apart octet by octet);</li>
 *   <li>DDP and RDMAP (RFC 5041, RFC 5040, RFC 7306): {@link org.iwarp4j.oracle.Segment} (building tagged and
 *       untagged segments, Read Requests, Terminates, including wrong ones) and
 *       {@link org.iwarp4j.oracle.SegmentView} (taking one apart, Terminates in either control-word layout).</li>
 * </ul>
 *
 * Nothing here is fast or clever; everything is an array of octets, built and read field by field as the RFC
 * figures draw them. The classes are not thread-safe unless they say so.
 */
package org.iwarp4j.oracle;
