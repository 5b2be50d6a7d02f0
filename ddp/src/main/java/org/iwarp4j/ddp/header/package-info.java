/**
 * Flyweights over the DDP headers of RFC 5041 §4, in the style of Aeron's {@code io.aeron.protocol}
 * flyweights: {@code *_OFFSET} constants relative to the first octet of the DDP header (the first octet of
 * the ULPDU), accessors that read and write at an index of a {@link io.netty.buffer.ByteBuf}, no objects per
 * segment. All multi-octet fields are in network byte order (big-endian), which is also
 * {@code ByteBuf}'s default order.
 */
package org.iwarp4j.ddp.header;
