package org.iwarp4j.rdmap.stream;

import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.wire.AtomicOpcode;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RDMAP frame log: one human-readable line per RDMA message in ({@code <<}) and out ({@code >>}), on
 * its own logger {@value #LOGGER_NAME} at DEBUG, in the style of OkHttp's {@code Http2.frameLog}:
 *
 * <pre>
 * &gt;&gt; RDMA_WRITE stag=0x1a2b3c01 to=0x0 len=65536
 * &gt;&gt; RDMA_READ_REQUEST msn=1 sink=0x0a0b0c0d@0x2000 size=100 src=0x11223344@0x4000
 * &lt;&lt; RDMA_READ_RESPONSE stag=0x0a0b0c0d to=0x2000 len=100
 * &lt;&lt; SEND_WITH_INVALIDATE msn=2 len=16 inv=0x00abcdef
 * &gt;&gt; TERMINATE msn=1 0x0/0x1/0x00 RDMA Remote Protection Error: Invalid STag M D R ...
 * </pre>
 *
 * Outbound messages are logged when their first segment is handed to DDP, inbound ones when DDP
 * delivers them. Every method checks {@code isDebugEnabled()} first and takes primitives, so a disabled
 * log costs one branch and no allocation.
 */
final class FrameLog {

    static final String LOGGER_NAME = "org.iwarp4j.frames.rdmap";
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER_NAME);

    private final Object streamName;
    /** {@code [streamName] }, made when the first frame is logged: a stream that logs nothing builds no text. */
    private String prefix;

    FrameLog(Object streamName) {
        this.streamName = streamName;
    }

    private String prefix() {
        String p = prefix;
        if (p == null) {
            p = streamName == null ? "" : "[" + streamName + "] ";
            prefix = p;
        }
        return p;
    }

    boolean enabled() {
        return LOG.isDebugEnabled();
    }

    void tagged(boolean out, RdmapOpcode opcode, int stag, long to, long length) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}{} {} stag=0x{} to=0x{} len={}", prefix(), dir(out), opcode, hex8(stag), Long.toHexString(to),
                    length);
        }
    }

    void untagged(boolean out, RdmapOpcode opcode, int msn, long length) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}{} {} msn={} len={}", prefix(), dir(out), opcode, Integer.toUnsignedString(msn), length);
        }
    }

    void sendWithInvalidate(boolean out, RdmapOpcode opcode, int msn, long length, int invalidateStag) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}{} {} msn={} len={} inv=0x{}", prefix(), dir(out), opcode, Integer.toUnsignedString(msn),
                    length, hex8(invalidateStag));
        }
    }

    void immediateData(boolean out, RdmapOpcode opcode, int msn, long data) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}{} {} msn={} data=0x{}", prefix(), dir(out), opcode, Integer.toUnsignedString(msn),
                    String.format("%016x", data));
        }
    }

    void readRequest(boolean out, int msn, int sinkStag, long sinkTo, long size, int srcStag, long srcTo) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}{} RDMA_READ_REQUEST msn={} sink=0x{}@0x{} size={} src=0x{}@0x{}", prefix(), dir(out),
                    Integer.toUnsignedString(msn), hex8(sinkStag), Long.toHexString(sinkTo), size, hex8(srcStag),
                    Long.toHexString(srcTo));
        }
    }

    void atomicRequest(boolean out, int msn, AtomicOpcode op, int aopcodeValue, int requestId, int stag, long to,
                       long addOrSwap, long addOrSwapMask, long compare, long compareMask) {
        if (LOG.isDebugEnabled()) {
            String name = op == null ? "AOpCode=" + aopcodeValue : op.displayName();
            LOG.debug("{}{} ATOMIC_REQUEST msn={} {} id={} stag=0x{} to=0x{} data=0x{} mask=0x{} cmp=0x{} cmpmask=0x{}",
                    prefix(), dir(out), Integer.toUnsignedString(msn), name, Integer.toUnsignedString(requestId),
                    hex8(stag), Long.toHexString(to), Long.toHexString(addOrSwap), Long.toHexString(addOrSwapMask),
                    Long.toHexString(compare), Long.toHexString(compareMask));
        }
    }

    void atomicResponse(boolean out, int msn, int requestId, long original) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}{} ATOMIC_RESPONSE msn={} id={} orig=0x{}", prefix(), dir(out), Integer.toUnsignedString(msn),
                    Integer.toUnsignedString(requestId), Long.toHexString(original));
        }
    }

    void terminate(boolean out, int msn, Terminate terminate) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}{} TERMINATE msn={} {}", prefix(), dir(out), Integer.toUnsignedString(msn), terminate);
        }
    }

    private static String dir(boolean out) {
        return out ? ">>" : "<<";
    }

    private static String hex8(int value) {
        return String.format("%08x", value);
    }
}
