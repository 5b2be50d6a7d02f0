package org.iwarp4j.tools.demo;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.SendFlag;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.Sge;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.WorkCompletion;

/** Work requests and completions written as a reader of the verbs API would write them. */
final class WorkRequests {

    private WorkRequests() {}

    /**
     * The demo's regions by name, to write work requests as the Java that builds them: the server's, which the
     * client addresses by STag, and the client's. Each side's RNIC numbers its own STags, so a client region and
     * a server region may share one: a local SGE is named by the region it holds, a remote buffer by an STag of
     * the server's. The STags are read at each lookup (a fast registration changes a region's).
     */
    record Names(Map<String, MemoryRegion> server, Map<String, MemoryRegion> client) {
        String local(Sge sge) {
            return name(sge.region()) + ".sge(" + sge.offset() + ", " + sge.length() + ")";
        }

        String remote(Stag stag, long taggedOffset, long length) {
            for (Map.Entry<String, MemoryRegion> e : server.entrySet()) {
                MemoryRegion r = e.getValue();
                if (r.stag().equals(stag)) {
                    long offset = taggedOffset - r.address();
                    return offset == 0 && length == r.length() ? e.getKey() + ".remoteBuffer()"
                            : e.getKey() + ".remoteBuffer(" + offset + ", " + length + ")";
                }
            }
            return "new RemoteBuffer(new Stag(" + stag + "), " + hex(taggedOffset) + ", " + length + ")";
        }

        private String name(MemoryRegion region) {
            return Stream.of(client, server).flatMap(m -> m.entrySet().stream()).filter(e -> e.getValue() == region)
                    .map(Map.Entry::getKey).findFirst()
                    .orElse(String.format("region /* STag 0x%08x */", region.stag().value()));
        }
    }

    /**
     * {@code wr} as the factory call that makes it, e.g.
     * {@code RdmaWrite.of(1, data.sge(0, 302), sink.remoteBuffer(16, 302))}.
     */
    static String describe(SendWorkRequest wr, Names n) {
        String call;
        if (wr instanceof SendWorkRequest.RdmaWrite w) {
            call = "RdmaWrite.of(" + w.wrId() + ", " + n.local(w.sges().get(0)) + ", "
                    + n.remote(w.remoteStag(), w.remoteAddress(), w.sges().get(0).length()) + ")";
        } else if (wr instanceof SendWorkRequest.RdmaRead r) {
            call = "RdmaRead.of(" + r.wrId() + ", " + n.local(r.sges().get(0)) + ", "
                    + n.remote(r.remoteStag(), r.remoteAddress(), r.sges().get(0).length()) + ")";
        } else if (wr instanceof SendWorkRequest.Send s) {
            call = "Send.of(" + s.wrId() + ", " + s.sges().stream().map(n::local).collect(Collectors.joining(", "))
                    + ")";
        } else if (wr instanceof SendWorkRequest.SendWithInvalidate s) {
            call = "SendWithInvalidate.of(" + s.wrId() + ", new Stag(" + s.invalidateStag() + "), "
                    + s.sges().stream().map(n::local).collect(Collectors.joining(", ")) + ")";
        } else if (wr instanceof SendWorkRequest.RdmaWriteWithImmediate w) {
            call = "RdmaWriteWithImmediate.of(" + w.wrId() + ", " + n.local(w.sges().get(0)) + ", "
                    + n.remote(w.remoteStag(), w.remoteAddress(), w.sges().get(0).length()) + ", "
                    + String.format("0x%016xL", w.immediateData()) + ")";
        } else if (wr instanceof SendWorkRequest.AtomicFetchAdd a) {
            call = "AtomicFetchAdd.of(" + a.wrId() + ", " + n.remote(a.remoteStag(), a.remoteAddress(), 8) + ", "
                    + a.addData() + ")" + a.result().map(r -> ".withResult(" + n.local(r) + ")").orElse("");
        } else if (wr instanceof SendWorkRequest.AtomicCompareSwap c) {
            call = "AtomicCompareSwap.of(" + c.wrId() + ", " + n.remote(c.remoteStag(), c.remoteAddress(), 8) + ", "
                    + c.compareData() + ", " + hex(c.swapData()) + ")"
                    + c.result().map(r -> ".withResult(" + n.local(r) + ")").orElse("");
        } else {
            return wr.toString();
        }
        return wr.flags().equals(SendWorkRequest.SIGNALED) ? call : call + ".withFlags(" + flags(wr.flags()) + ")";
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

    private static String flags(Set<SendFlag> flags) {
        return flags.stream().map(Enum::name).sorted().collect(Collectors.joining(", ", "Set.of(", ")"));
    }

    private static String hex(long v) {
        return String.format("0x%xL", v);
    }
}
