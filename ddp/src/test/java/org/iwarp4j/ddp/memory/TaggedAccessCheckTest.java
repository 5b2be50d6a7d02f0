package org.iwarp4j.ddp.memory;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.ddp.memory.TaggedAccessCheck.Outcome.ACCESS_DENIED;
import static org.iwarp4j.ddp.memory.TaggedAccessCheck.Outcome.BASE_OR_BOUNDS;
import static org.iwarp4j.ddp.memory.TaggedAccessCheck.Outcome.INVALID_STAG;
import static org.iwarp4j.ddp.memory.TaggedAccessCheck.Outcome.NOT_ASSOCIATED;
import static org.iwarp4j.ddp.memory.TaggedAccessCheck.Outcome.OK;
import static org.iwarp4j.ddp.memory.TaggedAccessCheck.Outcome.TO_WRAP;

/** The shared check as RDMAP would use it for a Read Request's source (REMOTE_READ, 32-bit sizes). */
class TaggedAccessCheckTest {

    private final Object stream = new Object();
    private final ByteBufTaggedBuffer readable = new ByteBufTaggedBuffer(1, 0x1000, Unpooled.buffer(0x100, 0x100),
            EnumSet.of(TaggedBufferAccess.REMOTE_READ), 5, null);

    private TaggedAccessCheck.Outcome check(TaggedBuffer b, long to, long length, TaggedBufferAccess access) {
        return TaggedAccessCheck.check(b, to, length, access, 5, stream);
    }

    @Test
    void readRequestSourceChecksInOrder() {
        assertThat(check(null, 0x1000, 1, TaggedBufferAccess.REMOTE_READ)).isEqualTo(INVALID_STAG);
        assertThat(check(readable, 0x1000, 0x100, TaggedBufferAccess.REMOTE_READ)).isEqualTo(OK);
        assertThat(check(readable, 0x1000, 0x101, TaggedBufferAccess.REMOTE_READ)).isEqualTo(BASE_OR_BOUNDS);
        assertThat(check(readable, 0x0FFF, 1, TaggedBufferAccess.REMOTE_READ)).isEqualTo(BASE_OR_BOUNDS);
        assertThat(check(readable, 0x1100, 0, TaggedBufferAccess.REMOTE_READ)).isEqualTo(OK);
        assertThat(check(readable, 0x1000, 1, TaggedBufferAccess.REMOTE_WRITE)).isEqualTo(ACCESS_DENIED);
        assertThat(check(readable, 0x1000, 0xFFFFFFFFL, TaggedBufferAccess.REMOTE_READ)).isEqualTo(BASE_OR_BOUNDS);
        assertThat(TaggedAccessCheck.check(readable, 0x1000, 1, TaggedBufferAccess.REMOTE_READ, 6, stream))
                .isEqualTo(NOT_ASSOCIATED);
    }

    @Test
    void invalidTakesPrecedenceOverAssociationAndAssociationOverAccess() {
        ByteBufTaggedBuffer foreignInvalid = new ByteBufTaggedBuffer(2, 0, Unpooled.buffer(8, 8),
                EnumSet.noneOf(TaggedBufferAccess.class), 99, new Object()).invalidate();
        assertThat(check(foreignInvalid, 0, 1, TaggedBufferAccess.REMOTE_READ)).isEqualTo(INVALID_STAG);
        ByteBufTaggedBuffer foreign = new ByteBufTaggedBuffer(2, 0, Unpooled.buffer(8, 8),
                EnumSet.noneOf(TaggedBufferAccess.class), 99, null);
        assertThat(check(foreign, 0, 1, TaggedBufferAccess.REMOTE_READ)).isEqualTo(NOT_ASSOCIATED);
    }

    @Test
    void aSumThatReaches2To64IsAWrapInsideTheRegionAndBeyondIt() {
        ByteBufTaggedBuffer top = new ByteBufTaggedBuffer(3, 0xFFFFFFFFFFFFFF00L, Unpooled.buffer(0x100, 0x100),
                EnumSet.of(TaggedBufferAccess.REMOTE_READ), 5, null);
        assertThat(check(top, 0xFFFFFFFFFFFFFF00L, 0xFF, TaggedBufferAccess.REMOTE_READ)).isEqualTo(OK);
        assertThat(check(top, 0xFFFFFFFFFFFFFF00L, 0x100, TaggedBufferAccess.REMOTE_READ)).isEqualTo(TO_WRAP);
        assertThat(check(top, 0xFFFFFFFFFFFFFF00L, 0x101, TaggedBufferAccess.REMOTE_READ)).isEqualTo(TO_WRAP);
    }

    /** The wrap needs only the octets, so it comes first: the same outcome whatever the STag names. */
    @Test
    void theWrapIsDecidedBeforeTheStag() {
        assertThat(check(null, 0xFFFFFFFFFFFFFFF8L, 8, TaggedBufferAccess.REMOTE_READ)).isEqualTo(TO_WRAP);
        assertThat(check(readable, 0xFFFFFFFFFFFFFFFFL, 1, TaggedBufferAccess.REMOTE_WRITE)).isEqualTo(TO_WRAP);
        assertThat(check(null, 0xFFFFFFFFFFFFFFFFL, 0, TaggedBufferAccess.REMOTE_READ)).isEqualTo(INVALID_STAG);
        assertThat(TaggedAccessCheck.wraps(0xFFFFFFFFFFFFFFFFL, 0)).isFalse();
        assertThat(TaggedAccessCheck.wraps(0xFFFFFFFFFFFFFFFEL, 1)).isFalse();
        assertThat(TaggedAccessCheck.wraps(0xFFFFFFFFFFFFFFFEL, 2)).isTrue();
    }
}
