package org.iwarp4j.conformance.support;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.iwarp4j.ddp.receive.DdpReceiveListener;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.receive.TaggedAdmission;
import org.iwarp4j.ddp.receive.UntaggedAdmission;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ULP above a {@link DdpReceiver} in tests (what RDMAP will be): admits every segment (tagged ones
 * as RDMA Writes), records every callback in order, and owns the untagged buffers it posts (filled with
 * {@link TestRegion#FILL} so that "nothing placed" is checkable). {@link #close()} releases them.
 */
public final class DdpRecorder implements DdpReceiveListener, AutoCloseable {

    /** One callback. */
    public sealed interface Call permits TaggedPlaced, TaggedDelivered, UntaggedPlaced, UntaggedDelivered, Rejected,
            LowerLayer {}

    public record TaggedPlaced(int rsvdUlp, int stag, long to, int length, boolean last) implements Call {}

    public record TaggedDelivered(int rsvdUlp, int stag, long firstTo, long length) implements Call {}

    public record UntaggedPlaced(int qn, int msn, int mo, int length, boolean last) implements Call {}

    /** @param content the delivered buffer's first {@code length} octets */
    public record UntaggedDelivered(int qn, int msn, int rsvdUlp, int rsvdUlpWord, int length, byte[] content)
            implements Call {}

    public record Rejected(DdpException error) implements Call {}

    public record LowerLayer(Throwable cause) implements Call {}

    public final List<Call> calls = new ArrayList<>();
    /** Octet 1 of every admitted segment, in order (admission happens before placement). */
    public final List<Integer> admittedRsvdUlp = new ArrayList<>();
    private final List<ByteBuf> owned = new ArrayList<>();
    private final Map<UntaggedBuffer, ByteBuf> buffers = new HashMap<>();
    public TaggedAdmission taggedAdmission = TaggedAdmission.REMOTE_WRITE;
    public UntaggedAdmission untaggedAdmission = UntaggedAdmission.PLACE;

    /**
     * A receiver for RFC 5040's three queues over {@code registry}, protection domain {@code pd}, stream
     * {@code stream}.
     */
    public DdpReceiver receiver(TaggedBufferRegistry registry, long pd, Object stream) {
        return new DdpReceiver(registry, pd, stream, DdpReceiver.QUEUES_RFC5040, this);
    }

    /** Posts a pooled, FILL-filled buffer of {@code capacity} octets on {@code qn}; returns its MSN. */
    public int post(DdpReceiver receiver, int qn, int capacity) {
        ByteBuf b = Bytes.ALLOC.heapBuffer(capacity, capacity);
        for (int i = 0; i < capacity; i++) {
            b.setByte(i, TestRegion.FILL);
        }
        owned.add(b);
        ByteBufUntaggedBuffer u = new ByteBufUntaggedBuffer(b);
        buffers.put(u, b);
        return receiver.post(qn, u);
    }

    /** The content of the buffer posted as the n-th (0-based) buffer overall. */
    public byte[] posted(int index) {
        ByteBuf b = owned.get(index);
        return ByteBufUtil.getBytes(b, 0, b.capacity());
    }

    public <T extends Call> List<T> all(Class<T> type) {
        return calls.stream().filter(type::isInstance).map(type::cast).toList();
    }

    public DdpException rejection() {
        List<Rejected> r = all(Rejected.class);
        if (r.size() != 1) {
            throw new AssertionError("expected one rejection, got " + calls);
        }
        return r.get(0).error();
    }

    @Override
    public TaggedAdmission admitTaggedSegment(int rsvdUlp, int stag, long to, int payloadLength, boolean last,
            ByteBuf segment) {
        admittedRsvdUlp.add(rsvdUlp);
        return taggedAdmission;
    }

    @Override
    public UntaggedAdmission admitUntaggedSegment(int rsvdUlp, int rsvdUlpWord, int qn, int msn, int mo,
                                                  int payloadLength, boolean last, ByteBuf segment) {
        admittedRsvdUlp.add(rsvdUlp);
        return untaggedAdmission;
    }

    @Override
    public void onTaggedSegmentPlaced(int rsvdUlp, int stag, long to, int payloadLength, boolean last) {
        calls.add(new TaggedPlaced(rsvdUlp, stag, to, payloadLength, last));
    }

    @Override
    public void onTaggedMessageDelivered(int rsvdUlp, int stag, long firstTo, long messageLength) {
        calls.add(new TaggedDelivered(rsvdUlp, stag, firstTo, messageLength));
    }

    @Override
    public void onUntaggedSegmentPlaced(int qn, int msn, int mo, int payloadLength, boolean last) {
        calls.add(new UntaggedPlaced(qn, msn, mo, payloadLength, last));
    }

    @Override
    public void onUntaggedMessageDelivered(int qn, int msn, int rsvdUlp, int rsvdUlpWord, int messageLength,
                                           UntaggedBuffer buffer) {
        ByteBuf b = buffers.get(buffer);
        calls.add(new UntaggedDelivered(qn, msn, rsvdUlp, rsvdUlpWord, messageLength,
                b == null ? null : ByteBufUtil.getBytes(b, 0, messageLength)));
    }

    @Override
    public void onSegmentRejected(DdpException error) {
        calls.add(new Rejected(error));
    }

    @Override
    public void onLowerLayerFailure(Throwable cause) {
        calls.add(new LowerLayer(cause));
    }

    @Override
    public void close() {
        owned.forEach(ByteBuf::release);
        owned.clear();
    }
}
