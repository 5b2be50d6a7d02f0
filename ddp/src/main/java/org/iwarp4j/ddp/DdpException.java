package org.iwarp4j.ddp;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.ddp.header.TaggedHeaderFlyweight;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;

import java.util.HexFormat;

/**
 * An error detected by DDP on an incoming segment (RFC 5041 §7.1), carrying everything RFC 5040 §4.8
 * puts into a Terminate message for a DDP-layer error:
 *
 * <ul>
 *   <li>{@link #layer()} = 1, {@link #errorType()} and {@link #errorCode()} (RFC 5041 §7.2), from
 *       {@link #error()};</li>
 *   <li>{@link #terminatedDdpHeader()}: the DDP header of the offending segment exactly as received —
 *       14 octets if its T bit is 1, 18 if it is 0 (fewer only when the segment itself was shorter than
 *       its header);</li>
 *   <li>{@link #ddpSegmentLength()}: the length of the offending segment as the lower layer handed it
 *       up (DDP header + payload, i.e. MPA's ULPDU_Length).</li>
 * </ul>
 *
 * <p>RFC 5041 §7.1 says the report SHOULD include the header, the error type and the segment length;
 * RFC 5040 Fig 10 says a DDP-layer Terminate carries the DDP header and the segment length (M=1, D=1)
 * and no RDMA header — except for {@link DdpError#LOCAL_CATASTROPHIC}, which carries neither
 * ({@link #hasTerminatedDdpHeader()} is false).
 *
 * <p>Raised only on the (fatal) error path; the stream places nothing after it (RFC 5041 §7.1).
 */
public final class DdpException extends Exception {

    private static final long serialVersionUID = 1L;

    private final DdpError error;
    private final byte[] header;
    private final int segmentLength;

    public DdpException(DdpError error, byte[] terminatedDdpHeader, int ddpSegmentLength, String detail) {
        super(error.notation() + " " + error.meaning() + (detail == null || detail.isEmpty() ? "" : ": " + detail));
        this.error = error;
        this.header = terminatedDdpHeader.clone();
        this.segmentLength = ddpSegmentLength;
    }

    /**
     * An error about the segment that starts at {@code segment.readerIndex()}: captures its DDP header
     * (14 or 18 octets by its T bit, fewer if the segment is shorter) and its length
     * ({@code readableBytes()}). The segment is not modified or released.
     */
    public static DdpException of(DdpError error, ByteBuf segment, String detail) {
        int length = segment.readableBytes();
        int headerLength = length == 0 ? 0
                : DdpControl.isTagged(segment.getUnsignedByte(segment.readerIndex()))
                        ? TaggedHeaderFlyweight.HEADER_LENGTH : UntaggedHeaderFlyweight.HEADER_LENGTH;
        byte[] header = new byte[Math.min(headerLength, length)];
        segment.getBytes(segment.readerIndex(), header);
        return new DdpException(error, header, length, detail);
    }

    public DdpError error() {
        return error;
    }

    /** Always 1 = DDP (RFC 5040 §4.8 Layer field). */
    public int layer() {
        return DdpError.LAYER;
    }

    /** The EType value (RFC 5041 §7.2). */
    public int errorType() {
        return error.type().value();
    }

    /** The Error Code value (RFC 5041 §7.2). */
    public int errorCode() {
        return error.code();
    }

    /**
     * True when a Terminate for this error SHOULD carry the DDP Segment Length and the Terminated DDP
     * Header (RFC 5040 Fig 10: yes for every DDP-layer error except Local Catastrophic), and the
     * complete header was received.
     */
    public boolean hasTerminatedDdpHeader() {
        return error != DdpError.LOCAL_CATASTROPHIC && header.length > 0
                && header.length == (DdpControl.isTagged(header[0]) ? TaggedHeaderFlyweight.HEADER_LENGTH
                        : UntaggedHeaderFlyweight.HEADER_LENGTH);
    }

    /** A copy of the offending segment's DDP header, exactly as received. */
    public byte[] terminatedDdpHeader() {
        return header.clone();
    }

    /** The octets of the offending header, copied into {@code target} at its writer index. */
    public ByteBuf writeTerminatedDdpHeader(ByteBuf target) {
        return target.writeBytes(header);
    }

    /** The offending segment's length as handed up by the lower layer (header + payload). */
    public int ddpSegmentLength() {
        return segmentLength;
    }

    @Override
    public String toString() {
        return "DdpException[" + getMessage() + ", segmentLength=" + segmentLength + ", header="
                + HexFormat.of().formatHex(header) + "]";
    }
}
