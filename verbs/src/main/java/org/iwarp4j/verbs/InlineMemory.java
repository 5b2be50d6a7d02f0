package org.iwarp4j.verbs;

import java.nio.ByteBuffer;
import java.util.Set;

/** The unregistered memory behind {@link Sge#inline(ByteBuffer)}: no STag, no domain, only octets to copy. */
final class InlineMemory implements MemoryRegion {

    private final ByteBuffer data;

    InlineMemory(ByteBuffer data) {
        this.data = data;
    }

    @Override
    public Stag stag() {
        throw new UnsupportedOperationException("inline memory is not registered: it has no STag");
    }

    @Override
    public long address() {
        return 0;
    }

    @Override
    public long length() {
        return data.remaining();
    }

    @Override
    public Set<Access> access() {
        return Set.of();
    }

    @Override
    public boolean isValid() {
        return true;
    }

    @Override
    public boolean isFastRegistration() {
        return false;
    }

    @Override
    public ProtectionDomain protectionDomain() {
        throw new UnsupportedOperationException("inline memory is not registered: it has no protection domain");
    }

    @Override
    public ByteBuffer buffer() {
        return data.duplicate();
    }

    @Override
    public RemoteBuffer remoteBuffer() {
        throw new UnsupportedOperationException("inline memory is not registered: peers cannot address it");
    }

    @Override
    public void close() {
        // nothing registered
    }

    @Override
    public String toString() {
        return "InlineMemory[" + data.remaining() + " octets]";
    }
}
