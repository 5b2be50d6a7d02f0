package org.iwarp4j.mpa;

import org.iwarp4j.common.MpaOptions;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Immutable configuration of one MPA endpoint (either role); build with {@link #builder()}. The settings
 * both roles share (revision, CRC, markers, peer-to-peer mode and RTR types, startup timeout, EMSS, receive
 * limit) are one {@link MpaOptions}, with its defaults; the rest is what one connection negotiates:
 * <ul>
 *   <li>{@code ird} / {@code ord} (16 / 16): IRD and ORD to advertise, 0…0x3FFF (0x3FFF = no automatic
 *       negotiation, RFC 6581 §9.1); {@code irdLimit} (= ird), the largest IRD this endpoint can provide: an
 *       Initiator raises its IRD up to it to match the Responder's ORD (else Terminate 0x06), a Responder may
 *       raise its IRD up to it to match the Initiator's ORD;</li>
 *   <li>{@code requiredOrd} (0): Responder only, reject (R=1, the needed ORD in the Reply) a Request whose IRD
 *       is below it (RFC 6581 §9.1); 0 never rejects;</li>
 *   <li>{@code rtrReplyPolicy}: Responder, which RTR flags its Reply sets;</li>
 *   <li>{@code privateData}: ULP private data of the Request/Reply, ≤ 512 octets, ≤ 508 with revision 2;</li>
 *   <li>{@code requestTimeout} (= the startup timeout): Responder, how long to wait for the Request
 *       (detects Responder/Responder, RFC 5044 §7.1.2 rule 8);</li>
 *   <li>{@code autoAccept} (true): Responder, accept every valid Request with this configuration; when false,
 *       fire a {@code MpaConnectRequest} event and wait for the user;</li>
 *   <li>{@code rejectDataBeforeReply} (by role: Responder true, Initiator false): treat octets the peer may not
 *       send yet as a PD_Length mismatch (0x04, close; RFC 5044 §7.1.1, MPA-32). At the Responder, octets after
 *       the Request before our Reply (the Initiator sends nothing until it has the Reply, §7.1.2 rule 3); at the
 *       Initiator, octets together with an accepting Reply (the Responder sends no FPDU before it received one,
 *       §7.1.2 rule 4). When false they are kept and handed to the FPDU decoder: a Linux siw Responder sends
 *       first whenever its application does (interop/FINDINGS.md, R8).</li>
 * </ul>
 */
public final class MpaConfig {

    /** Default IRD and ORD. */
    public static final int DEFAULT_IRD_ORD = 16;
    /** The shared settings' defaults (immutable, so every builder starts from the same instance). */
    private static final MpaOptions DEFAULT_OPTIONS = MpaOptions.defaults();

    private final MpaOptions options;
    private final int ird;
    private final int ord;
    private final int irdLimit;
    private final int requiredOrd;
    private final RtrReplyPolicy rtrReplyPolicy;
    private final byte[] privateData;
    private final Duration requestTimeout;
    private final boolean autoAccept;
    private final Boolean rejectDataBeforeReply;

    private MpaConfig(Builder b) {
        MpaOptions o = b.options != null ? b.options.build() : b.base;
        checkIrdOrd("ird", b.ird);
        checkIrdOrd("ord", b.ord);
        int limit = b.irdLimit < 0 ? b.ird : b.irdLimit;
        checkIrdOrd("irdLimit", limit);
        if (limit < b.ird) {
            throw new IllegalArgumentException("irdLimit " + limit + " is below ird " + b.ird);
        }
        checkIrdOrd("requiredOrd", b.requiredOrd);
        int maxPd = MpaFrame.MAX_PRIVATE_DATA_LENGTH - (o.revision() >= 2 ? EnhancedConnectionData.LENGTH : 0);
        if (b.privateData.length > maxPd) {
            throw new IllegalArgumentException("private data of " + b.privateData.length + " octets exceeds "
                    + maxPd + " (RFC 5044 §7.1.1, RFC 6581 §7)");
        }
        Duration request = b.requestTimeout == null ? o.startupTimeout() : b.requestTimeout;
        if (request.isNegative() || request.isZero()) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        if (request.compareTo(o.startupTimeout()) > 0) {
            throw new IllegalArgumentException("requestTimeout exceeds startupTimeout");
        }
        options = o;
        ird = b.ird;
        ord = b.ord;
        irdLimit = limit;
        requiredOrd = b.requiredOrd;
        rtrReplyPolicy = b.rtrReplyPolicy;
        privateData = b.privateData.clone();
        requestTimeout = request;
        autoAccept = b.autoAccept;
        rejectDataBeforeReply = b.rejectDataBeforeReply;
    }

    private static void checkIrdOrd(String name, int v) {
        if (v < 0 || v > EnhancedConnectionData.NO_NEGOTIATION) {
            throw new IllegalArgumentException(name + " must be 0..0x3FFF: " + v);
        }
    }

    /** A builder with the defaults listed in the class comment. */
    public static Builder builder() {
        return new Builder();
    }

    /** The default configuration. */
    public static MpaConfig defaults() {
        return builder().build();
    }

    /** A builder initialised with this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.base = options;
        b.ird = ird;
        b.ord = ord;
        b.irdLimit = irdLimit;
        b.requiredOrd = requiredOrd;
        b.rtrReplyPolicy = rtrReplyPolicy;
        b.privateData = privateData.clone();
        // a requestTimeout equal to the startup timeout was (or behaves as) the derived default: keep it
        // derived, so that lowering startupTimeout on the copy does not trip the requestTimeout check
        b.requestTimeout = requestTimeout.equals(options.startupTimeout()) ? null : requestTimeout;
        b.autoAccept = autoAccept;
        b.rejectDataBeforeReply = rejectDataBeforeReply;
        return b;
    }

    /** The settings both roles share (revision, CRC, markers, peer-to-peer, RTR types, timeouts, sizes). */
    public MpaOptions options() { return options; }
    public int revision() { return options.revision(); }
    public boolean crc() { return options.crc(); }
    public boolean markers() { return options.markers(); }
    public int ird() { return ird; }
    public int ord() { return ord; }
    public int irdLimit() { return irdLimit; }
    public int requiredOrd() { return requiredOrd; }
    public boolean peerToPeer() { return options.peerToPeer(); }
    /** Supported RTR types, most preferred first. */
    public List<RtrType> rtrTypes() { return options.rtrTypes(); }
    public RtrReplyPolicy rtrReplyPolicy() { return rtrReplyPolicy; }
    /** ULP private data (a copy). */
    public byte[] privateData() { return privateData.clone(); }
    public Duration startupTimeout() { return options.startupTimeout(); }
    public Duration requestTimeout() { return requestTimeout; }
    /** Configured EMSS; 0 = ask the channel, else {@link Mulpdu#DEFAULT_EMSS}. */
    public int emss() { return options.emss(); }
    public int receiveUlpduLimit() { return options.receiveUlpduLimit(); }
    public boolean autoAccept() { return autoAccept; }
    /**
     * Whether a peer's octets that arrive before this side may receive them make the startup fail (see the
     * table above), for the given role: the explicit setting, or by default true for the Responder and
     * false for the Initiator.
     */
    public boolean rejectDataBeforeReply(MpaRole role) {
        return rejectDataBeforeReply != null ? rejectDataBeforeReply : role == MpaRole.RESPONDER;
    }

    @Override
    public String toString() {
        return "MpaConfig[rev=" + revision() + " crc=" + crc() + " markers=" + markers() + " ird=" + ird + " ord=" + ord
                + " irdLimit=" + irdLimit + " requiredOrd=" + requiredOrd + " p2p=" + peerToPeer() + " rtr="
                + rtrTypes() + " " + rtrReplyPolicy + " pd=" + privateData.length + " startupTimeout="
                + startupTimeout() + " requestTimeout=" + requestTimeout + " emss=" + emss() + " rxLimit="
                + receiveUlpduLimit() + " autoAccept=" + autoAccept + " rejectDataBeforeReply=" + rejectDataBeforeReply
                + "]";
    }

    /**
     * Builder of {@link MpaConfig}; {@link #build()} validates. The shared settings start at the defaults of
     * {@link MpaOptions} (the one place they are declared); {@link #options(MpaOptions)} sets them all.
     */
    public static final class Builder {
        /** The shared settings as given ({@link #options(MpaOptions)}), used as they are unless one is changed. */
        private MpaOptions base = DEFAULT_OPTIONS;
        /** A copy of {@link #base} to change, made when a single shared setting is set. */
        private MpaOptions.Builder options;
        private int ird = DEFAULT_IRD_ORD;
        private int ord = DEFAULT_IRD_ORD;
        private int irdLimit = -1;
        private int requiredOrd;
        private RtrReplyPolicy rtrReplyPolicy = RtrReplyPolicy.ALL_SUPPORTED;
        private byte[] privateData = new byte[0];
        private Duration requestTimeout;
        private boolean autoAccept = true;
        private Boolean rejectDataBeforeReply;

        private Builder() {}

        /** Every shared setting at once (revision, CRC, markers, peer-to-peer, RTR types, timeouts, sizes). */
        public Builder options(MpaOptions v) { base = Objects.requireNonNull(v); options = null; return this; }
        public Builder revision(int v) { shared().revision(v); return this; }
        public Builder crc(boolean v) { shared().crc(v); return this; }
        public Builder markers(boolean v) { shared().markers(v); return this; }
        public Builder ird(int v) { ird = v; return this; }
        public Builder ord(int v) { ord = v; return this; }
        /** Largest IRD this endpoint can provide; defaults to {@code ird}. */
        public Builder irdLimit(int v) { irdLimit = v; return this; }
        public Builder requiredOrd(int v) { requiredOrd = v; return this; }
        public Builder peerToPeer(boolean v) { shared().peerToPeer(v); return this; }
        /** Supported RTR types, most preferred first (at least one). */
        public Builder rtrTypes(RtrType... v) { shared().rtrTypes(v); return this; }
        public Builder rtrTypes(List<RtrType> v) { shared().rtrTypes(v); return this; }
        public Builder rtrReplyPolicy(RtrReplyPolicy v) { rtrReplyPolicy = Objects.requireNonNull(v); return this; }
        public Builder privateData(byte[] v) { privateData = v == null ? new byte[0] : v.clone(); return this; }
        public Builder startupTimeout(Duration v) { shared().startupTimeout(Objects.requireNonNull(v)); return this; }
        public Builder requestTimeout(Duration v) { requestTimeout = v; return this; }
        public Builder emss(int v) { shared().emss(v); return this; }
        public Builder receiveUlpduLimit(int v) { shared().receiveUlpduLimit(v); return this; }
        public Builder autoAccept(boolean v) { autoAccept = v; return this; }
        public Builder rejectDataBeforeReply(boolean v) { rejectDataBeforeReply = v; return this; }

        public MpaConfig build() {
            return new MpaConfig(this);
        }

        private MpaOptions.Builder shared() {
            if (options == null) {
                options = base.toBuilder();
            }
            return options;
        }
    }
}
