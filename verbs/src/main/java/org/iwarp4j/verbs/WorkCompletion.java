package org.iwarp4j.verbs;

/**
 * One work completion ({@code ibv_wc}) as a reusable, mutable flyweight: allocate an array once and let
 * {@link CompletionQueue#poll(WorkCompletion[])} fill it again and again without allocation.
 *
 * <p>The setters exist for the RNIC (and for tests of completion handlers); applications only read.
 */
public final class WorkCompletion {

    private long wrId;
    private CompletionStatus status;
    private CompletionOpcode opcode;
    private long byteLength;
    private boolean hasImmediate;
    private long immediateData;
    private boolean hasInvalidatedStag;
    private int invalidatedStag;
    private boolean solicited;
    private long atomicOriginalValue;
    private QueuePair queuePair;
    private TerminateInfo terminate;

    /** The {@code wrId} of the work request. */
    public long wrId() {
        return wrId;
    }

    public CompletionStatus status() {
        return status;
    }

    public boolean isSuccess() {
        return status == CompletionStatus.SUCCESS;
    }

    public CompletionOpcode opcode() {
        return opcode;
    }

    /** Octets sent, written, read, or received (0 for Immediate Data receives). */
    public long byteLength() {
        return byteLength;
    }

    /** Whether {@link #immediateData()} is valid (a {@link CompletionOpcode#RECV_WITH_IMMEDIATE}). */
    public boolean hasImmediate() {
        return hasImmediate;
    }

    /** The 8 octets of an Immediate Data message, big-endian as on the wire (RFC 7306 §6.2). */
    public long immediateData() {
        return immediateData;
    }

    /** Whether a Send with Invalidate invalidated {@link #invalidatedStag()} on this side. */
    public boolean hasInvalidatedStag() {
        return hasInvalidatedStag;
    }

    public Stag invalidatedStag() {
        return hasInvalidatedStag ? new Stag(invalidatedStag) : null;
    }

    /** The raw invalidated STag (no allocation). */
    public int invalidatedStagValue() {
        return invalidatedStag;
    }

    /** Whether the received message was a Solicited Event variant. */
    public boolean solicited() {
        return solicited;
    }

    /** For successful atomics: the target's value before the operation (RFC 7306 §5.2.2). */
    public long atomicOriginalValue() {
        return atomicOriginalValue;
    }

    public QueuePair queuePair() {
        return queuePair;
    }

    /** The Terminate that explains an unsuccessful status, or {@code null}. */
    public TerminateInfo terminate() {
        return terminate;
    }

    // ------------------------------------------------------------------ filled by the RNIC

    public WorkCompletion reset() {
        wrId = 0;
        status = null;
        opcode = null;
        byteLength = 0;
        hasImmediate = false;
        immediateData = 0;
        hasInvalidatedStag = false;
        invalidatedStag = 0;
        solicited = false;
        atomicOriginalValue = 0;
        queuePair = null;
        terminate = null;
        return this;
    }

    public WorkCompletion set(long wrId, CompletionStatus status, CompletionOpcode opcode, long byteLength,
                              QueuePair queuePair, TerminateInfo terminate) {
        this.wrId = wrId;
        this.status = status;
        this.opcode = opcode;
        this.byteLength = byteLength;
        this.queuePair = queuePair;
        this.terminate = terminate;
        return this;
    }

    public WorkCompletion immediate(long value) {
        this.hasImmediate = true;
        this.immediateData = value;
        return this;
    }

    public WorkCompletion invalidated(int stag) {
        this.hasInvalidatedStag = true;
        this.invalidatedStag = stag;
        return this;
    }

    public WorkCompletion solicited(boolean value) {
        this.solicited = value;
        return this;
    }

    public WorkCompletion atomicOriginalValue(long value) {
        this.atomicOriginalValue = value;
        return this;
    }

    /** Copies every field of {@code other} into this one. */
    public WorkCompletion copyFrom(WorkCompletion other) {
        wrId = other.wrId;
        status = other.status;
        opcode = other.opcode;
        byteLength = other.byteLength;
        hasImmediate = other.hasImmediate;
        immediateData = other.immediateData;
        hasInvalidatedStag = other.hasInvalidatedStag;
        invalidatedStag = other.invalidatedStag;
        solicited = other.solicited;
        atomicOriginalValue = other.atomicOriginalValue;
        queuePair = other.queuePair;
        terminate = other.terminate;
        return this;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("WorkCompletion[wrId=").append(wrId).append(' ').append(status)
                .append(' ').append(opcode).append(" len=").append(byteLength);
        if (hasImmediate) {
            sb.append(String.format(" imm=0x%016x", immediateData));
        }
        if (hasInvalidatedStag) {
            sb.append(String.format(" inv=0x%08x", invalidatedStag));
        }
        if (solicited) {
            sb.append(" SE");
        }
        if (terminate != null) {
            sb.append(" terminate ").append(terminate);
        }
        return sb.append(']').toString();
    }
}
