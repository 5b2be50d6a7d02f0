package org.iwarp4j.rdmap.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.ddp.send.OutboundMessage;
import org.iwarp4j.ddp.testing.CapturingLlp;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateDecoder;
import org.iwarp4j.rdmap.terminate.TerminateEncoder;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HexFormat;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code rdmap/} and {@code markers/} golden vector: the RDMAP fields ({@code rdmap.*}, {@code rr.*},
 * {@code term.*}, {@code atomic.*}, {@code immediate_data}) decode from {@code ulpdu_hex} with the
 * flyweights, and the message re-encodes — RDMAP header by the flyweights / Terminate encoder, DDP
 * framing by DDP's sender — to exactly {@code ulpdu_hex} [RDMAP-01..11, EXT-01..03].
 */
class RdmapVectorTest {

    private static final int UNTAGGED = 18;
    private static final int TAGGED = 14;

    static Stream<GoldenVector> vectors() {
        return Stream.concat(GoldenVectors.inGroup("rdmap").stream(), GoldenVectors.inGroup("markers").stream())
                .filter(v -> v.has("rdmap.opcode"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void fieldsDecode(GoldenVector v) {
        ByteBuf u = Unpooled.wrappedBuffer(v.hex("ulpdu_hex"));
        int control = u.getUnsignedByte(RdmapControl.OFFSET);
        assertThat(RdmapControl.version(control)).isEqualTo(v.intField("rdmap.rv"));
        assertThat(RdmapControl.reserved(control)).isEqualTo(v.intField("rdmap.rsv"));
        RdmapOpcode opcode = RdmapControl.opcode(control);
        assertThat(opcode).isNotNull();
        assertThat(opcode.code()).isEqualTo(v.intField("rdmap.opcode"));
        assertThat(opcode.displayName()).isEqualTo(v.field("rdmap.opcode_name"));
        // RFC 5040 Fig 4 / RFC 7306 Fig 2 [RDMAP-03]: T flag and QN as the opcode requires
        assertThat(opcode.tagged()).isEqualTo(v.flag("ddp.t"));
        if (!opcode.tagged()) {
            assertThat(opcode.queueNumber()).isEqualTo(v.intField("ddp.qn"));
            if (!opcode.carriesInvalidateStag()) {
                assertThat(u.getInt(RdmapControl.INVALIDATE_STAG_OFFSET)).isZero(); // [RDMAP-04]
            }
        }
        if (v.has("rr.sink_stag")) {
            ReadRequestHeader rr = new ReadRequestHeader().wrap(u, UNTAGGED);
            assertThat(Integer.toUnsignedLong(rr.sinkStag())).isEqualTo(v.number("rr.sink_stag"));
            assertThat(rr.sinkTaggedOffset()).isEqualTo(v.number("rr.sink_to"));
            assertThat(Integer.toUnsignedLong(rr.messageSize())).isEqualTo(v.number("rr.rdma_read_message_size"));
            assertThat(Integer.toUnsignedLong(rr.sourceStag())).isEqualTo(v.number("rr.src_stag"));
            assertThat(rr.sourceTaggedOffset()).isEqualTo(v.number("rr.src_to"));
        }
        if (v.has("atomic.aopcode")) {
            AtomicRequestHeader a = new AtomicRequestHeader().wrap(u, UNTAGGED);
            assertThat(a.atomicOpcodeCode()).isEqualTo(v.intField("atomic.aopcode"));
            assertThat(AtomicOpcode.fromCode(a.atomicOpcodeCode())).isNotNull();
            assertThat(Integer.toUnsignedLong(a.requestId())).isEqualTo(v.number("atomic.request_id"));
            if (v.has("atomic.remote_stag")) {
                assertThat(Integer.toUnsignedLong(a.remoteStag())).isEqualTo(v.number("atomic.remote_stag"));
                assertThat(a.remoteTaggedOffset()).isEqualTo(v.number("atomic.remote_to"));
                assertThat(a.addOrSwapData()).isEqualTo(v.number("atomic.add_or_swap_data"));
                assertThat(a.addOrSwapMask()).isEqualTo(v.number("atomic.add_or_swap_mask"));
                assertThat(a.compareData()).isEqualTo(v.number("atomic.compare_data"));
                assertThat(a.compareMask()).isEqualTo(v.number("atomic.compare_mask"));
            }
        }
        if (v.has("atomic.orig_request_id")) {
            AtomicResponseHeader a = new AtomicResponseHeader().wrap(u, UNTAGGED);
            assertThat(Integer.toUnsignedLong(a.originalRequestId())).isEqualTo(v.number("atomic.orig_request_id"));
            assertThat(a.originalRemoteData()).isEqualTo(v.number("atomic.orig_remote_data"));
        }
        if (v.has("immediate_data")) {
            assertThat(u.capacity() - UNTAGGED).isEqualTo(ImmediateDataHeader.LENGTH); // [EXT-02]
            assertThat(new ImmediateDataHeader().wrap(u, UNTAGGED).immediateData())
                    .isEqualTo(v.number("immediate_data"));
        }
        if (v.has("term.layer")) {
            Terminate t = TerminateDecoder.decode(u, UNTAGGED, u.capacity() - UNTAGGED);
            assertThat(t.layer()).isEqualTo(v.intField("term.layer"));
            assertThat(t.errorType()).isEqualTo(v.intField("term.etype"));
            assertThat(t.errorCode()).isEqualTo(v.intField("term.error_code"));
            if (v.has("term.m")) {
                assertThat(t.m()).isEqualTo(v.flag("term.m"));
                assertThat(t.d()).isEqualTo(v.flag("term.d"));
                assertThat(t.r()).isEqualTo(v.flag("term.r"));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void messageReencodesExactly(GoldenVector v) {
        byte[] ulpdu = v.hex("ulpdu_hex");
        ByteBuf u = Unpooled.wrappedBuffer(ulpdu);
        RdmapOpcode opcode = RdmapControl.opcode(u.getUnsignedByte(RdmapControl.OFFSET));
        boolean last = v.flag("ddp.l");
        CapturingLlp llp = new CapturingLlp(last ? 65535 : ulpdu.length); // a first segment: MULPDU = its length
        DdpSender sender = new DdpSender(llp, ByteBufAllocator.DEFAULT, 4);
        byte control = RdmapControl.encode(opcode);
        OutboundMessage m;
        if (opcode.tagged()) {
            ByteBuf payload = ByteBufAllocator.DEFAULT.buffer();
            payload.writeBytes(ulpdu, TAGGED, ulpdu.length - TAGGED);
            if (!last) {
                payload.writeZero(1); // the message goes on after this segment
            }
            m = sender.tagged(control, u.getInt(2), u.getLong(6), payload);
        } else {
            int qn = u.getInt(6);
            int msn = u.getInt(10);
            for (int i = 1; i < msn; i++) { // earlier messages on the queue take MSN 1 .. msn-1
                sender.untagged(qn, control, 0, Unpooled.EMPTY_BUFFER).writeAll();
            }
            m = sender.untagged(qn, control, u.getInt(RdmapControl.INVALIDATE_STAG_OFFSET), rdmapPayload(opcode, u));
        }
        try {
            m.writeNextSegment();
            byte[] produced = llp.segments.get(llp.segments.size() - 1);
            assertThat(HexFormat.of().formatHex(produced)).isEqualTo(HexFormat.of().formatHex(ulpdu));
        } finally {
            m.abandon();
        }
    }

    /** The DDP payload of an untagged message, encoded from the decoded fields. */
    private static ByteBuf rdmapPayload(RdmapOpcode opcode, ByteBuf u) {
        ByteBuf out = ByteBufAllocator.DEFAULT.buffer(64);
        switch (opcode) {
            case RDMA_READ_REQUEST -> {
                ReadRequestHeader in = new ReadRequestHeader().wrap(u, UNTAGGED);
                out.writerIndex(ReadRequestHeader.LENGTH);
                new ReadRequestHeader().wrap(out, 0).sinkStag(in.sinkStag()).sinkTaggedOffset(in.sinkTaggedOffset())
                        .messageSize(in.messageSize()).sourceStag(in.sourceStag())
                        .sourceTaggedOffset(in.sourceTaggedOffset());
            }
            case ATOMIC_REQUEST -> {
                AtomicRequestHeader in = new AtomicRequestHeader().wrap(u, UNTAGGED);
                out.writerIndex(AtomicRequestHeader.LENGTH);
                new AtomicRequestHeader().wrap(out, 0).atomicOpcode(AtomicOpcode.fromCode(in.atomicOpcodeCode()))
                        .requestId(in.requestId()).remoteStag(in.remoteStag())
                        .remoteTaggedOffset(in.remoteTaggedOffset()).addOrSwapData(in.addOrSwapData())
                        .addOrSwapMask(in.addOrSwapMask()).compareData(in.compareData()).compareMask(in.compareMask());
            }
            case ATOMIC_RESPONSE -> {
                AtomicResponseHeader in = new AtomicResponseHeader().wrap(u, UNTAGGED);
                out.writerIndex(AtomicResponseHeader.LENGTH);
                new AtomicResponseHeader().wrap(out, 0).originalRequestId(in.originalRequestId())
                        .originalRemoteData(in.originalRemoteData());
            }
            case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE -> {
                out.writerIndex(ImmediateDataHeader.LENGTH);
                new ImmediateDataHeader().wrap(out, 0)
                        .immediateData(new ImmediateDataHeader().wrap(u, UNTAGGED).immediateData());
            }
            case TERMINATE ->
                    TerminateEncoder.encode(TerminateDecoder.decode(u, UNTAGGED, u.capacity() - UNTAGGED), out);
            default -> out.writeBytes(u, UNTAGGED, u.capacity() - UNTAGGED); // Send variants: ULP payload
        }
        return out;
    }
}
