/**
 * The DDP send path: segmentation of tagged and untagged messages (RFC 5041 §5.2) into a lower layer
 * ({@link org.iwarp4j.ddp.send.LlpSegmentWriter}), one segment at a time so the ULP can interleave one
 * tagged and one untagged message, respect the channel's writability and stop after a Terminate.
 * Zero-copy: each segment's payload is a retained slice of the message; its header is a small buffer
 * from the allocator; the lower layer writes both with one gathered write.
 */
package org.iwarp4j.ddp.send;
