package org.iwarp4j.testkit.peer;

import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.oracle.Hex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Script step "expect an MPA Request (or Reply) with …": reads the 20-octet header and PD_Length octets of
 * Private Data, checks the key, then every condition added with the {@code with…} methods. Each failed
 * condition is reported with the value that arrived. Returned by {@link ScriptedPeer#expectMpaRequest()}
 * and {@link ScriptedPeer#expectMpaReply()}; add conditions before the peer reaches the step.
 */
public final class MpaFrameExpectation implements ScriptStep {

    private record Check(String expected, Predicate<StartupFrame> test, Function<StartupFrame, String> actual) {}

    private final ScriptedPeer peer;
    private final boolean request;
    private final List<Check> checks = new ArrayList<>();
    private final CompletableFuture<StartupFrame> received = new CompletableFuture<>();

    MpaFrameExpectation(ScriptedPeer peer, boolean request) {
        this.peer = peer;
        this.request = request;
    }

    private MpaFrameExpectation check(String expected, Predicate<StartupFrame> test,
                                      Function<StartupFrame, String> actual) {
        synchronized (checks) {
            checks.add(new Check(expected, test, actual));
        }
        return this;
    }

    private static String bit(boolean b) {
        return b ? "1" : "0";
    }

    public MpaFrameExpectation withMarkers(boolean m) {
        return check("M=" + bit(m), f -> f.markers() == m, f -> "M=" + bit(f.markers()));
    }

    public MpaFrameExpectation withCrc(boolean c) {
        return check("C=" + bit(c), f -> f.crc() == c, f -> "C=" + bit(f.crc()));
    }

    public MpaFrameExpectation withRejected(boolean r) {
        return check("R=" + bit(r), f -> f.rejected() == r, f -> "R=" + bit(f.rejected()));
    }

    /** The S bit (RFC 6581 §6). */
    public MpaFrameExpectation withEnhancedFlag(boolean s) {
        return check("S=" + bit(s), f -> f.enhancedFlag() == s, f -> "S=" + bit(f.enhancedFlag()));
    }

    public MpaFrameExpectation withReservedBits(int res) {
        return check("Res=0x" + Integer.toHexString(res), f -> f.reservedBits() == res,
                f -> "Res=0x" + Integer.toHexString(f.reservedBits()));
    }

    public MpaFrameExpectation withRevision(int rev) {
        return check("Rev=" + rev, f -> f.revision() == rev, f -> "Rev=" + f.revision());
    }

    /** All Private Data octets (enhanced data included). */
    public MpaFrameExpectation withPrivateData(byte[] pd) {
        byte[] copy = pd.clone();
        return check("Private Data " + Hex.of(copy), f -> Arrays.equals(f.privateData(), copy),
                f -> "Private Data " + Hex.of(f.privateData()));
    }

    /** The ULP part of the Private Data (after the enhanced data when S=1, Rev ≥ 2). */
    public MpaFrameExpectation withUlpPrivateData(byte[] pd) {
        byte[] copy = pd.clone();
        return check("ULP private data " + Hex.of(copy), f -> Arrays.equals(f.ulpPrivateData(), copy),
                f -> "ULP private data " + Hex.of(f.ulpPrivateData()));
    }

    /** The RFC 6581 enhanced data (implies S=1 and Rev ≥ 2). */
    public MpaFrameExpectation withEnhanced(StartupFrame.Enhanced e) {
        return check(e.toString(), f -> e.equals(f.enhanced()), f -> String.valueOf(f.enhanced()));
    }

    /** Any condition on the frame. */
    public MpaFrameExpectation matching(Predicate<StartupFrame> condition, String description) {
        return check(description, condition, StartupFrame::toString);
    }

    /** Completes with the frame once it arrived (whether or not the conditions held). */
    public CompletableFuture<StartupFrame> received() {
        peer.seal();
        return received;
    }

    /** Adds "send this frame" as the next step and returns the peer for more steps. */
    public ScriptedPeer respond(StartupFrame.Builder frame) {
        return peer.sendMpaFrame(frame);
    }

    /** Adds "send these octets as an MPA frame" as the next step and returns the peer. */
    public ScriptedPeer respond(byte[] frame) {
        return peer.sendMpaFrame(frame);
    }

    /** The peer, to continue the script. */
    public ScriptedPeer and() {
        peer.seal();
        return peer;
    }

    @Override
    public String description() {
        StringBuilder sb = new StringBuilder("expect an MPA ").append(request ? "Request" : "Reply");
        synchronized (checks) {
            if (!checks.isEmpty()) {
                sb.append(" with ");
                for (int i = 0; i < checks.size(); i++) {
                    sb.append(i == 0 ? "" : ", ").append(checks.get(i).expected());
                }
            }
        }
        return sb.toString();
    }

    @Override
    public void run(PeerConnection c, long deadline) throws IOException {
        String what = description();
        byte[] header = c.readExactly(StartupFrame.HEADER_LENGTH, deadline, what + " (its 20-octet header)");
        StartupFrame h = StartupFrame.parse(header);
        byte[] expectedKey = request ? StartupFrame.REQUEST_KEY : StartupFrame.REPLY_KEY;
        if (!Arrays.equals(h.key(), expectedKey)) {
            throw new ScriptFailure(what + ": the key is wrong: " + h + "; arrived " + Hex.of(header)
                    + "\n  key " + Hex.diff(expectedKey, h.key()));
        }
        byte[] pd = c.readExactly(h.pdLength(), deadline,
                what + " (PD_Length " + h.pdLength() + " octets of Private Data)");
        byte[] all = Arrays.copyOf(header, header.length + pd.length);
        System.arraycopy(pd, 0, all, header.length, pd.length);
        StartupFrame f = StartupFrame.parse(all);
        received.complete(f);
        List<String> failed = new ArrayList<>();
        synchronized (checks) {
            for (Check ch : checks) {
                if (!ch.test().test(f)) {
                    failed.add("expected " + ch.expected() + " but " + ch.actual().apply(f));
                }
            }
        }
        if (!failed.isEmpty()) {
            throw new ScriptFailure(what + ":\n  " + String.join("\n  ", failed) + "\n  arrived: " + f
                    + "\n  octets: " + Hex.of(all));
        }
        c.receivedFrame = f;
        c.maybeEnterFullOperation();
    }
}
