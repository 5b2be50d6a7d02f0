package org.iwarp4j.conformance.support;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.send.LlpSegmentWriter;

import java.util.ArrayList;
import java.util.List;

/** A lower layer for the DDP sender in tests: a settable MULPDU, and every segment copied (and released). */
public final class CapturingLlp implements LlpSegmentWriter {

    public final List<byte[]> segments = new ArrayList<>();
    public int mulpdu;

    public CapturingLlp(int mulpdu) {
        this.mulpdu = mulpdu;
    }

    @Override
    public int mulpdu() {
        return mulpdu;
    }

    @Override
    public void writeSegment(ByteBuf header, ByteBuf payload) {
        segments.add(Bytes.concat(Bytes.drain(header), Bytes.drain(payload)));
    }
}
