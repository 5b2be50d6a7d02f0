/**
 * RFC 7306 §5 atomics: the masked FetchAdd / CmpSwap arithmetic ({@link org.iwarp4j.rdmap.atomic.AtomicMath})
 * and the {@link org.iwarp4j.rdmap.atomic.AtomicExecutor} through which a stream performs them on
 * registered memory — one instance per RNIC so that atomics of all its streams exclude each other
 * [EXT-05], with the byte order of the target word configurable (default little-endian).
 */
package org.iwarp4j.rdmap.atomic;
