package org.iwarp4j.ddp.memory;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The tagged buffer over one ByteBuf: what DDP reads, and how invalidation and a fast registration change it. */
class ByteBufTaggedBufferTest {

    @Test
    void answersWhatItWasRegisteredWith() {
        ByteBuf memory = ByteBufAllocator.DEFAULT.directBuffer(64, 64);
        Object stream = new Object();
        ByteBufTaggedBuffer b = new ByteBufTaggedBuffer(0x1a2b3c01, 0x7f00_0000_1000L, memory,
                EnumSet.of(TaggedBufferAccess.REMOTE_READ), 7, stream);
        assertThat(b.stag()).isEqualTo(0x1a2b3c01);
        assertThat(b.baseTaggedOffset()).isEqualTo(0x7f00_0000_1000L);
        assertThat(b.memory()).isSameAs(memory);
        assertThat(b.protectionDomain()).isEqualTo(7);
        assertThat(b.associatedStream()).isSameAs(stream);
        assertThat(b.isValid()).isTrue();
        assertThat(b.grants(TaggedBufferAccess.REMOTE_READ)).isTrue();
        assertThat(b.grants(TaggedBufferAccess.REMOTE_WRITE)).isFalse();
        assertThat(b.grants(TaggedBufferAccess.LOCAL_WRITE)).isFalse();
        assertThat(b.grants(TaggedBufferAccess.REMOTE_ATOMIC)).isFalse();
        ByteBufTaggedBuffer w = ByteBufTaggedBuffer.writable(5, 0, memory, 1);
        assertThat(w.grants(TaggedBufferAccess.REMOTE_WRITE)).isTrue();
        assertThat(w.grants(TaggedBufferAccess.LOCAL_WRITE)).isTrue();
        assertThat(w.grants(TaggedBufferAccess.REMOTE_READ)).isFalse();
        assertThat(w.associatedStream()).isNull();
        assertThat(memory.refCnt()).as("never takes or drops a reference").isEqualTo(1);
        memory.release();
    }

    @Test
    void invalidationAndFastRegistration() {
        ByteBuf first = ByteBufAllocator.DEFAULT.directBuffer(16, 16);
        ByteBuf second = ByteBufAllocator.DEFAULT.directBuffer(32, 32);
        ByteBufTaggedBuffer shell = new ByteBufTaggedBuffer(0x100, 0, null, Set.of(), 1, null, false);
        assertThat(shell.isValid()).isFalse();
        shell.rebind(0x101, 0x2000, first, EnumSet.of(TaggedBufferAccess.LOCAL_WRITE));
        assertThat(shell.isValid()).isTrue();
        assertThat(shell.stag()).isEqualTo(0x101);
        assertThat(shell.baseTaggedOffset()).isEqualTo(0x2000);
        assertThat(shell.memory()).isSameAs(first);
        assertThat(shell.invalidate()).isSameAs(shell);
        assertThat(shell.isValid()).isFalse();
        shell.rebind(0x102, 0x9000, second,
                EnumSet.of(TaggedBufferAccess.REMOTE_WRITE, TaggedBufferAccess.LOCAL_WRITE));
        assertThat(shell.isValid()).isTrue();
        assertThat(shell.grants(TaggedBufferAccess.REMOTE_WRITE)).isTrue();
        assertThat(shell.memory()).isSameAs(second);
        assertThat(shell.unbind()).isSameAs(second);
        assertThat(shell.isValid()).isFalse();
        assertThat(shell.memory()).isNull();
        assertThat(shell.toString()).contains("stag=0x00000102", "length=0", "invalid");
        first.release();
        second.release();
    }
}
