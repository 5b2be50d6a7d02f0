package org.iwarp4j.ddp.receive;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.memory.UntaggedBuffer;

/** Forwards every call to another listener; tests override what they need. */
class DelegatingListener implements DdpReceiveListener {

    private final DdpReceiveListener delegate;

    DelegatingListener(DdpReceiveListener delegate) {
        this.delegate = delegate;
    }

    @Override
    public TaggedAdmission admitTaggedSegment(int rsvdUlp, int stag, long to, int payloadLength, boolean last,
                                              ByteBuf segment) {
        return delegate.admitTaggedSegment(rsvdUlp, stag, to, payloadLength, last, segment);
    }

    @Override
    public UntaggedAdmission admitUntaggedSegment(int rsvdUlp, int rsvdUlpWord, int qn, int msn, int mo,
                                                  int payloadLength, boolean last, ByteBuf segment) {
        return delegate.admitUntaggedSegment(rsvdUlp, rsvdUlpWord, qn, msn, mo, payloadLength, last, segment);
    }

    @Override
    public void onTaggedSegmentPlaced(int rsvdUlp, int stag, long to, int payloadLength, boolean last) {
        delegate.onTaggedSegmentPlaced(rsvdUlp, stag, to, payloadLength, last);
    }

    @Override
    public void onTaggedMessageDelivered(int rsvdUlp, int stag, long firstTo, long messageLength) {
        delegate.onTaggedMessageDelivered(rsvdUlp, stag, firstTo, messageLength);
    }

    @Override
    public void onUntaggedSegmentPlaced(int qn, int msn, int mo, int payloadLength, boolean last) {
        delegate.onUntaggedSegmentPlaced(qn, msn, mo, payloadLength, last);
    }

    @Override
    public void onUntaggedMessageDelivered(int qn, int msn, int rsvdUlp, int rsvdUlpWord, int messageLength,
                                           UntaggedBuffer buffer) {
        delegate.onUntaggedMessageDelivered(qn, msn, rsvdUlp, rsvdUlpWord, messageLength, buffer);
    }

    @Override
    public void onSegmentRejected(DdpException error) {
        delegate.onSegmentRejected(error);
    }

    @Override
    public void onLowerLayerFailure(Throwable cause) {
        delegate.onLowerLayerFailure(cause);
    }
}
