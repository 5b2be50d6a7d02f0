package org.iwarp4j.verbs;

import org.iwarp4j.verbs.internal.WorkCompletionAccess;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.IntFunction;

/**
 * One work completion ({@code ibv_wc}). {@link CompletionQueue#poll(WorkCompletion[])} fills the same
 * objects again and again without allocating: make an array once ({@link #array(int)}) and read each entry
 * before the next poll overwrites it, or keep a {@link #copy()}. Only the RNIC fills completions; to the
 * application they are read-only.
 *
 * <p>A completion names its queue pair by number; {@link #queuePair()} finds the queue pair while it is
 * open, so a kept completion does not keep a closed queue pair (its connection, its buffers) alive.
 */
public final class WorkCompletion {

    private static final CompletionStatus[] STATUSES = CompletionStatus.values();
    private static final CompletionOpcode[] OPCODES = CompletionOpcode.values();
    private static final byte SUCCESS = code(CompletionStatus.SUCCESS);

    static {
        WorkCompletionAccess.install(new Writer());
    }

    // Status and opcode are kept as codes (ordinal + 1; 0 for none), and the two references are stored only when
    // they change: a completion queue's entries and an application's polled array live long, and every reference
    // stored into an old object costs a memory fence in G1's write barrier. Filling and copying a completion
    // stores no reference in the steady state.
    private long wrId;
    private byte status;
    private byte opcode;
    private long byteLength;
    private boolean hasImmediate;
    private long immediateData;
    private boolean hasInvalidatedStag;
    private int invalidatedStag;
    private boolean solicited;
    private long atomicOriginalValue;
    private int queuePairNumber;
    private IntFunction<QueuePair> queuePairs;
    private TerminateInfo terminate;

    /** An empty completion to be filled by {@link CompletionQueue#poll}. */
    public WorkCompletion() {
    }

    /**
     * {@code n} empty completions, for {@link CompletionQueue#poll(WorkCompletion[])}.
     *
     * @param n how many
     * @return a new array of new completions
     */
    public static WorkCompletion[] array(int n) {
        WorkCompletion[] a = new WorkCompletion[n];
        for (int i = 0; i < n; i++) {
            a[i] = new WorkCompletion();
        }
        return a;
    }

    /**
     * The {@code wrId} of the work request.
     *
     * @return the id given when posting
     */
    public long wrId() {
        return wrId;
    }

    /**
     * How the request ended.
     *
     * @return the status ({@code null} only for a completion never filled)
     */
    public CompletionStatus status() {
        return status == 0 ? null : STATUSES[status - 1];
    }

    /**
     * Whether the request succeeded.
     *
     * @return {@code status() == SUCCESS}
     */
    public boolean isSuccess() {
        return status == SUCCESS;
    }

    /**
     * What completed.
     *
     * @return the opcode
     */
    public CompletionOpcode opcode() {
        return opcode == 0 ? null : OPCODES[opcode - 1];
    }

    /**
     * Octets sent, written, read, or received (0 for Immediate Data receives and unsuccessful completions).
     *
     * @return the length
     */
    public long byteLength() {
        return byteLength;
    }

    /**
     * The 8 octets of an Immediate Data message (RFC 7306 §6.2), as a big-endian long as on the wire.
     *
     * @return the value for a {@link CompletionOpcode#RECV_WITH_IMMEDIATE}, else empty
     */
    public OptionalLong immediateData() {
        return hasImmediate ? OptionalLong.of(immediateData) : OptionalLong.empty();
    }

    /**
     * The STag a received Send with Invalidate invalidated on this side.
     *
     * @return the STag, or empty
     */
    public Optional<Stag> invalidatedStag() {
        return hasInvalidatedStag ? Optional.of(new Stag(invalidatedStag)) : Optional.empty();
    }

    /**
     * Whether the received message was a Solicited Event variant.
     *
     * @return true for Send with SE and its variants
     */
    public boolean solicited() {
        return solicited;
    }

    /**
     * For a successful atomic: the target's value before the operation (RFC 7306 §5.2.2).
     *
     * @return the original value, or empty for any other completion
     */
    public OptionalLong atomicOriginalValue() {
        CompletionOpcode op = opcode();
        boolean atomic = isSuccess()
                && (op == CompletionOpcode.ATOMIC_FETCH_ADD || op == CompletionOpcode.ATOMIC_CMP_SWAP);
        return atomic ? OptionalLong.of(atomicOriginalValue) : OptionalLong.empty();
    }

    /**
     * The number of the queue pair the request belonged to.
     *
     * @return the queue pair number
     */
    public int queuePairNumber() {
        return queuePairNumber;
    }

    /**
     * The queue pair the request belonged to, while it is open.
     *
     * @return the queue pair, or empty once closed
     */
    public Optional<QueuePair> queuePair() {
        IntFunction<QueuePair> q = queuePairs;
        return q == null ? Optional.empty() : Optional.ofNullable(q.apply(queuePairNumber));
    }

    /**
     * The Terminate that explains an unsuccessful status.
     *
     * @return the Terminate, or empty
     */
    public Optional<TerminateInfo> terminate() {
        return Optional.ofNullable(terminate);
    }

    /**
     * A copy that later polls do not overwrite.
     *
     * @return a new completion with the same content
     */
    public WorkCompletion copy() {
        return new WorkCompletion().copyFrom(this);
    }

    private WorkCompletion copyFrom(WorkCompletion other) {
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
        queuePairNumber = other.queuePairNumber;
        if (queuePairs != other.queuePairs) {
            queuePairs = other.queuePairs;
        }
        if (terminate != other.terminate) {
            terminate = other.terminate;
        }
        return this;
    }

    private static byte code(CompletionStatus s) {
        return (byte) (s == null ? 0 : s.ordinal() + 1);
    }

    private static byte code(CompletionOpcode o) {
        return (byte) (o == null ? 0 : o.ordinal() + 1);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("WorkCompletion[wrId=").append(wrId).append(' ').append(status())
                .append(' ').append(opcode()).append(" len=").append(byteLength).append(" qp=").append(queuePairNumber);
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

    /** How the RNIC fills completions (see {@link WorkCompletionAccess}). */
    private static final class Writer extends WorkCompletionAccess {
        @Override
        public void set(WorkCompletion wc, long wrId, CompletionStatus status, CompletionOpcode opcode, long byteLength,
                        int queuePairNumber, IntFunction<QueuePair> queuePairs, TerminateInfo terminate) {
            wc.wrId = wrId;
            wc.status = code(status);
            wc.opcode = code(opcode);
            wc.byteLength = byteLength;
            wc.queuePairNumber = queuePairNumber;
            if (wc.queuePairs != queuePairs) {
                wc.queuePairs = queuePairs;
            }
            if (wc.terminate != terminate) {
                wc.terminate = terminate;
            }
            wc.hasImmediate = false;
            wc.immediateData = 0;
            wc.hasInvalidatedStag = false;
            wc.invalidatedStag = 0;
            wc.solicited = false;
            wc.atomicOriginalValue = 0;
        }

        @Override
        public void immediate(WorkCompletion wc, long value) {
            wc.hasImmediate = true;
            wc.immediateData = value;
        }

        @Override
        public void invalidated(WorkCompletion wc, int stag) {
            wc.hasInvalidatedStag = true;
            wc.invalidatedStag = stag;
        }

        @Override
        public void solicited(WorkCompletion wc, boolean value) {
            wc.solicited = value;
        }

        @Override
        public void atomicOriginalValue(WorkCompletion wc, long value) {
            wc.atomicOriginalValue = value;
        }

        @Override
        public void copy(WorkCompletion from, WorkCompletion to) {
            to.copyFrom(from);
        }
    }
}
