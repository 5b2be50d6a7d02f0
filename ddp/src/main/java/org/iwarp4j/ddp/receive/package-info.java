/**
 * The DDP receive path (RFC 5041 §5, §7): {@link org.iwarp4j.ddp.receive.DdpReceiver} takes each segment
 * the lower layer hands up, pulls the header fields into locals, lets the ULP admit the segment
 * ({@link org.iwarp4j.ddp.receive.DdpReceiveListener}), runs the RFC 5041 §7.1 checks, places the payload
 * directly into registered memory or a posted untagged buffer, and delivers messages in order — in the
 * style of Netty's {@code DefaultHttp2FrameReader} calling an {@code Http2FrameListener}: no header
 * objects on the hot path.
 */
package org.iwarp4j.ddp.receive;
