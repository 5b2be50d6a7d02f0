/**
 * The memory DDP places into, as interfaces the layers above implement.
 *
 * <ul>
 *   <li>{@link org.iwarp4j.ddp.memory.TaggedBuffer} / {@link org.iwarp4j.ddp.memory.TaggedBufferRegistry}:
 *       registered memory named by an STag (the verbs layer's memory regions and windows), with its base
 *       TO, length, access rights, protection domain or stream association and validity.</li>
 *   <li>{@link org.iwarp4j.ddp.memory.UntaggedBuffer}: a posted untagged buffer (the verbs layer's
 *       receive work request for QN 0; the small slots RDMAP provisions for QN 1, 2 and 3).</li>
 *   <li>{@link org.iwarp4j.ddp.memory.TaggedAccessCheck}: the tagged-buffer checks of RFC 5041 §7.1 as a
 *       pure function, shared by DDP (incoming Write / Read Response) and RDMAP (Read Request source,
 *       Atomic target).</li>
 * </ul>
 */
package org.iwarp4j.ddp.memory;
