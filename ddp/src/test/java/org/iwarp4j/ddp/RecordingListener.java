package org.iwarp4j.ddp;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.iwarp4j.ddp.receive.DdpReceiveListener;
import org.iwarp4j.ddp.receive.TaggedAdmission;
import org.iwarp4j.ddp.receive.UntaggedAdmission;

import java.util.ArrayList;
import java.util.List;

/**
 * Records every listener call as a line of text (for order assertions) plus typed records, and admits
 * segments as configured (tagged: REMOTE_WRITE unless told otherwise).
 */
public final class RecordingListener implements DdpReceiveListener {

    public record Delivered(int qn, int msn, int rsvdUlp, int rsvdUlpWord, int length, UntaggedBuffer buffer) {}

    public record TaggedDelivered(int rsvdUlp, int stag, long firstTo, long length) {}

    public final List<String> events = new ArrayList<>();
    public final List<Delivered> delivered = new ArrayList<>();
    public final List<TaggedDelivered> taggedDelivered = new ArrayList<>();
    public final List<DdpException> rejected = new ArrayList<>();
    public TaggedAdmission taggedAdmission = TaggedAdmission.REMOTE_WRITE;
    public UntaggedAdmission untaggedAdmission = UntaggedAdmission.PLACE;

    @Override
    public TaggedAdmission admitTaggedSegment(int rsvdUlp, int stag, long to, int payloadLength, boolean last,
                                              ByteBuf segment) {
        events.add(String.format("admitTagged rsvdUlp=0x%02x stag=0x%08x to=0x%x len=%d last=%b", rsvdUlp, stag, to,
                payloadLength, last));
        return taggedAdmission;
    }

    @Override
    public UntaggedAdmission admitUntaggedSegment(int rsvdUlp, int rsvdUlpWord, int qn, int msn, int mo,
                                                  int payloadLength, boolean last, ByteBuf segment) {
        events.add(String.format("admitUntagged rsvdUlp=0x%02x word=0x%08x qn=%d msn=%d mo=%d len=%d last=%b",
                rsvdUlp, rsvdUlpWord, qn, msn, mo, payloadLength, last));
        return untaggedAdmission;
    }

    @Override
    public void onTaggedSegmentPlaced(int rsvdUlp, int stag, long to, int payloadLength, boolean last) {
        events.add(String.format("taggedPlaced stag=0x%08x to=0x%x len=%d last=%b", stag, to, payloadLength, last));
    }

    @Override
    public void onTaggedMessageDelivered(int rsvdUlp, int stag, long firstTo, long messageLength) {
        events.add(String.format("taggedDelivered stag=0x%08x firstTo=0x%x len=%d", stag, firstTo, messageLength));
        taggedDelivered.add(new TaggedDelivered(rsvdUlp, stag, firstTo, messageLength));
    }

    @Override
    public void onUntaggedSegmentPlaced(int qn, int msn, int mo, int payloadLength, boolean last) {
        events.add(String.format("untaggedPlaced qn=%d msn=%d mo=%d len=%d last=%b", qn, msn, mo, payloadLength, last));
    }

    @Override
    public void onUntaggedMessageDelivered(int qn, int msn, int rsvdUlp, int rsvdUlpWord, int messageLength,
                                           UntaggedBuffer buffer) {
        events.add(String.format("untaggedDelivered qn=%d msn=%d len=%d", qn, msn, messageLength));
        delivered.add(new Delivered(qn, msn, rsvdUlp, rsvdUlpWord, messageLength, buffer));
    }

    @Override
    public void onSegmentRejected(DdpException error) {
        events.add("rejected " + error.error());
        rejected.add(error);
    }
}
