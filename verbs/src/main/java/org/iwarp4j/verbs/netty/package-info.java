/**
 * Netty interoperation, outside the main API on purpose: {@link org.iwarp4j.verbs.netty.NettyVerbs}
 * registers a Netty {@code ByteBuf} and opens an RNIC with a chosen {@code ByteBufAllocator}.
 */
package org.iwarp4j.verbs.netty;
