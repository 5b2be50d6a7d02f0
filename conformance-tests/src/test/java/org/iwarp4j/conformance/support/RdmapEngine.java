package org.iwarp4j.conformance.support;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.send.LlpSegmentWriter;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.iwarp4j.rdmap.atomic.AtomicExecutor;
import org.iwarp4j.rdmap.stream.OperationStatus;
import org.iwarp4j.rdmap.stream.OperationType;
import org.iwarp4j.rdmap.stream.RdmapListener;
import org.iwarp4j.rdmap.stream.RdmapMemory;
import org.iwarp4j.rdmap.stream.RdmapStream;
import org.iwarp4j.rdmap.stream.RdmapStreamConfig;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.wire.RdmapOpcode;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The RDMAP engine ({@link RdmapStream}) on the stack's own DDP and MPA FPDU codec, without sockets, so a
 * test decides exactly when the lower layer "takes" a segment and when the peer receives it: every
 * segment is framed by MPA's {@link FpduWriter} (CRC32c on) into {@link #wire}; {@link #deliverTo} cuts
 * those octets back into ULPDUs with MPA's {@link FpduReader} and hands them to another engine;
 * {@link #acknowledge} tells RDMAP the LLP took them (RFC 5040 §5.5 completion rule). Memory is
 * {@link TestRegion}s registered here (PD {@link #PD}).
 */
public final class RdmapEngine implements LlpSegmentWriter, RdmapMemory, RdmapListener, AutoCloseable {

    public static final long PD = 7;

    /** One completion or event the engine reported, in order. */
    public record Event(String kind, long id, Object status, long length, long value) {}

    public final List<Event> events = new ArrayList<>();
    public final List<byte[]> wire = new ArrayList<>();
    public final RdmapStream stream;
    private final Map<Integer, TestRegion> regions = new HashMap<>();
    private final List<ByteBuf> receiveBuffers = new ArrayList<>();
    private final FpduWriter writer = new FpduWriter(true, false, 0xFFFF, 0);
    private final FpduReader reader = new FpduReader(true, false, 0xFFFF, 0);
    private final ByteBuf inbound = Bytes.ALLOC.buffer();
    private int mulpdu = 1024;
    private long produced;
    private long acknowledged;
    public Terminate terminateReceived;

    public RdmapEngine(RdmapStreamConfig config, AtomicExecutor atomics) {
        stream = new RdmapStream(config.withProtectionDomain(PD, this), this, atomics, this, Bytes.ALLOC, this);
    }

    public TestRegion register(int stag, long base, int length, TaggedBufferAccess... access) {
        TestRegion r = new TestRegion(stag, base, length, PD, null, EnumSet.of(access[0], access));
        regions.put(stag, r);
        return r;
    }

    public ByteBuf postReceive(long id, int capacity) {
        ByteBuf b = Bytes.ALLOC.directBuffer(capacity, capacity);
        receiveBuffers.add(b);
        stream.postReceive(id, new ByteBufUntaggedBuffer(b));
        return b;
    }

    /** Lets RDMAP hand down every segment it has now; returns how many FPDUs went to {@link #wire}. */
    public int pump() {
        int n = 0;
        while (stream.writeNextSegment()) {
            n++;
        }
        return n;
    }

    /** The lower layer took every FPDU produced so far. */
    public void acknowledge() {
        stream.segmentsWritten((int) (produced - acknowledged));
        acknowledged = produced;
    }

    /** Moves every FPDU on the wire to {@code peer} (through MPA's FPDU reader) and clears the wire. */
    public int deliverTo(RdmapEngine peer) {
        int ulpdus = 0;
        for (byte[] fpdu : wire) {
            peer.inbound.writeBytes(fpdu);
            ByteBuf u;
            while ((u = peer.reader.read(peer.inbound, Bytes.ALLOC)) != null) {
                peer.stream.receive(u);
                ulpdus++;
            }
        }
        peer.inbound.discardReadBytes();
        wire.clear();
        return ulpdus;
    }

    public List<Event> events(String kind) {
        return events.stream().filter(e -> e.kind().equals(kind)).toList();
    }

    // ------------------------------------------------------------------ LlpSegmentWriter

    @Override
    public int mulpdu() {
        return mulpdu;
    }

    public void mulpdu(int v) {
        mulpdu = v;
    }

    @Override
    public void writeSegment(ByteBuf header, ByteBuf payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(header, payload, Bytes.ALLOC, (part, last) -> out.writeBytes(Bytes.drain(part)));
        wire.add(out.toByteArray());
        produced++;
    }

    // ------------------------------------------------------------------ RdmapMemory

    @Override
    public TaggedBuffer lookup(int stag) {
        return regions.get(stag);
    }

    @Override
    public boolean invalidate(TaggedBuffer buffer) {
        return false;
    }

    // ------------------------------------------------------------------ RdmapListener

    @Override
    public void onReceiveComplete(long workRequestId, OperationStatus status, RdmapOpcode opcode, int byteLength,
                                  int invalidatedStag, long immediateData) {
        events.add(new Event("recv", workRequestId, status, byteLength, immediateData));
    }

    @Override
    public void onSendComplete(long workRequestId, OperationType type, OperationStatus status, long byteLength,
                               long atomicOriginalValue) {
        events.add(new Event("send", workRequestId, status, byteLength, atomicOriginalValue));
    }

    @Override
    public void onTerminateReceived(Terminate terminate) {
        terminateReceived = terminate;
        events.add(new Event("terminate-received", 0, terminate, 0, 0));
    }

    @Override
    public void onFatalError(Throwable cause) {
        events.add(new Event("fatal", 0, cause, 0, 0));
    }

    @Override
    public void close() {
        stream.close();
        regions.values().forEach(TestRegion::close);
        receiveBuffers.forEach(ByteBuf::release);
        inbound.release();
    }
}
