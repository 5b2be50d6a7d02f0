package org.iwarp4j.tools.demo;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.SendFlag;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.Sge;
import org.iwarp4j.verbs.WorkCompletion;

/** Work requests and completions written as a reader of the verbs API would write them. */
final class WorkRequests {

    private WorkRequests() {}

    static String describe(SendWorkRequest wr) {
        if (wr instanceof SendWorkRequest.RdmaWrite w) {
            return "new RdmaWrite(" + w.wrId() + ", " + sges(w.sges()) + ", " + w.remoteStag() + ", "
                    + hex(w.remoteAddress()) + ", " + flags(w.flags()) + ")";
        }
        if (wr instanceof SendWorkRequest.RdmaRead r) {
            return "new RdmaRead(" + r.wrId() + ", " + sges(r.sges()) + ", " + r.remoteStag() + ", "
                    + hex(r.remoteAddress()) + ", " + flags(r.flags()) + ")";
        }
        if (wr instanceof SendWorkRequest.Send s) {
            return "new Send(" + s.wrId() + ", " + sges(s.sges()) + ", " + flags(s.flags()) + ")";
        }
        if (wr instanceof SendWorkRequest.SendWithInvalidate s) {
            return "new SendWithInvalidate(" + s.wrId() + ", " + sges(s.sges()) + ", " + s.invalidateStag() + ", "
                    + flags(s.flags()) + ")";
        }
        if (wr instanceof SendWorkRequest.RdmaWriteWithImmediate w) {
            return "new RdmaWriteWithImmediate(" + w.wrId() + ", " + sges(w.sges()) + ", " + w.remoteStag() + ", "
                    + hex(w.remoteAddress()) + ", " + String.format("0x%016xL", w.immediateData()) + ", "
                    + flags(w.flags()) + ")";
        }
        if (wr instanceof SendWorkRequest.AtomicFetchAdd a) {
            return "new AtomicFetchAdd(" + a.wrId() + ", " + result(a.result()) + ", " + a.remoteStag() + ", "
                    + hex(a.remoteAddress()) + ", " + a.addData() + " /* add */, " + a.addMask() + " /* mask */, "
                    + flags(a.flags()) + ")";
        }
        if (wr instanceof SendWorkRequest.AtomicCompareSwap c) {
            return "new AtomicCompareSwap(" + c.wrId() + ", " + result(c.result()) + ", " + c.remoteStag() + ", "
                    + hex(c.remoteAddress()) + ", " + c.compareData() + " /* compare */, -1L, " + hex(c.swapData())
                    + " /* swap */, -1L, " + flags(c.flags()) + ")";
        }
        if (wr instanceof SendWorkRequest.FastRegister f) {
            return "new FastRegister(" + f.wrId() + ", shell, memory, " + f.stag() + ", " + f.access() + ", "
                    + flags(f.flags()) + ")";
        }
        return wr.toString();
    }

    static String completion(String side, String queue, WorkCompletion wc) {
        StringBuilder s = new StringBuilder(side).append(' ').append(queue).append(" CQ: wrId ").append(wc.wrId())
                .append(' ').append(wc.opcode()).append(' ').append(wc.status());
        if (wc.opcode() != null && wc.opcode() != CompletionOpcode.ATOMIC_FETCH_ADD
                && wc.opcode() != CompletionOpcode.ATOMIC_CMP_SWAP) {
            s.append(", ").append(wc.byteLength()).append(" octets");
        }
        wc.immediateData().ifPresent(imm -> s.append(String.format(", immediate data 0x%016x", imm)));
        wc.invalidatedStag().ifPresent(stag -> s.append(", invalidated STag ").append(stag));
        wc.atomicOriginalValue().ifPresent(v -> s.append(", original value ").append(v));
        wc.terminate().ifPresent(t -> s.append(", ").append(t));
        return s.toString();
    }

    private static String sges(List<Sge> sges) {
        return sges.stream().map(WorkRequests::sge).collect(Collectors.joining(", ", "List.of(", ")"));
    }

    private static String sge(Sge s) {
        return "new Sge(" + s.region().stag() + ", " + s.offset() + ", " + s.length() + ")";
    }

    private static String result(Optional<Sge> s) {
        return s.map(r -> "Optional.of(" + sge(r) + ")").orElse("Optional.empty()");
    }

    private static String flags(Set<SendFlag> flags) {
        return flags.stream().map(Enum::name).sorted().collect(Collectors.joining(", ", "Set.of(", ")"));
    }

    private static String hex(long v) {
        return String.format("0x%xL", v);
    }
}
