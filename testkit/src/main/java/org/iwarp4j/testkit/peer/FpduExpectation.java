package org.iwarp4j.testkit.peer;

import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.Hex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Script step "expect an FPDU …" in Full Operation: locates the next FPDU from its ULPDU_Length (RFC 5044
 * §6) with the peer's inbound {@link FpduFraming}, reads it whole and fails if its CRC (when CRCs are on)
 * or any marker is wrong, then checks the conditions added with the {@code with…} methods. Returned by
 * {@link ScriptedPeer#expectFpdu()}.
 */
public final class FpduExpectation implements ScriptStep {

    private record Check(String expected, Predicate<DecodedFpdu> test, Function<DecodedFpdu, String> detail) {}

    private final ScriptedPeer peer;
    private final List<Check> checks = new ArrayList<>();
    private final CompletableFuture<DecodedFpdu> received = new CompletableFuture<>();

    FpduExpectation(ScriptedPeer peer) {
        this.peer = peer;
    }

    private FpduExpectation check(String expected, Predicate<DecodedFpdu> test) {
        return check(expected, test, f -> "");
    }

    private FpduExpectation check(String expected, Predicate<DecodedFpdu> test, Function<DecodedFpdu, String> detail) {
        synchronized (checks) {
            checks.add(new Check(expected, test, detail));
        }
        return this;
    }

    /** The ULPDU (markers, length field, PAD and CRC removed) is exactly {@code ulpdu}. */
    public FpduExpectation withUlpdu(byte[] ulpdu) {
        byte[] copy = ulpdu.clone();
        String shown = copy.length <= 32 ? Hex.of(copy)
                : "of " + copy.length + " octets " + Hex.of(Arrays.copyOf(copy, 16)) + "…";
        return check("ULPDU " + shown, f -> Arrays.equals(f.ulpdu(), copy), f -> ": " + Hex.diff(copy, f.ulpdu()));
    }

    public FpduExpectation withUlpduLength(int n) {
        return check("ULPDU_Length " + n, f -> f.ulpduLength() == n);
    }

    /** Any condition on the decoded FPDU. */
    public FpduExpectation matching(Predicate<DecodedFpdu> condition, String description) {
        return check(description, condition);
    }

    /** Completes with the FPDU once it arrived. */
    public CompletableFuture<DecodedFpdu> received() {
        peer.seal();
        return received;
    }

    public ScriptedPeer and() {
        peer.seal();
        return peer;
    }

    @Override
    public String description() {
        StringBuilder sb = new StringBuilder("expect an FPDU");
        synchronized (checks) {
            for (int i = 0; i < checks.size(); i++) {
                sb.append(i == 0 ? " with " : ", ").append(checks.get(i).expected());
            }
        }
        return sb.toString();
    }

    @Override
    public void run(PeerConnection c, long deadline) throws IOException {
        String what = description();
        FpduFraming rx = c.rx;
        if (rx == null) {
            throw new ScriptFailure(what + ": not in Full Operation (exchange MPA frames with expectMpa*/"
                    + "sendMpaFrame first, or call fullOperation(...))");
        }
        int hdr = rx.headerPosition();
        byte[] head = c.readExactly(hdr + 2, deadline, what + " (ULPDU_Length)");
        int ulpduLength = ((head[hdr] & 0xFF) << 8) | (head[hdr + 1] & 0xFF);
        int wireLength = rx.wireLength(ulpduLength);
        byte[] rest = c.readExactly(wireLength - head.length, deadline,
                what + " (the rest of an FPDU with ULPDU_Length " + ulpduLength + ")");
        byte[] wire = Arrays.copyOf(head, wireLength);
        System.arraycopy(rest, 0, wire, head.length, rest.length);
        DecodedFpdu f = rx.decode(wire);
        received.complete(f);
        if (!f.problems().isEmpty()) {
            throw new ScriptFailure(what + ": invalid FPDU: " + String.join("; ", f.problems()) + "\n  arrived: "
                    + Hex.of(wire));
        }
        List<String> failed = new ArrayList<>();
        synchronized (checks) {
            for (Check ch : checks) {
                if (!ch.test().test(f)) {
                    failed.add("expected " + ch.expected() + ch.detail().apply(f));
                }
            }
        }
        if (!failed.isEmpty()) {
            throw new ScriptFailure(what + ":\n  " + String.join("\n  ", failed) + "\n  arrived: " + f);
        }
    }
}
