package org.iwarp4j.mpa;

import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.fpdu.FpduLayout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * Immutable configuration of one MPA endpoint (either role); build with {@link #builder()}.
 * Defaults follow the RFCs and interoperate with Linux siw:
 *
 * <table>
 * <caption>Settings</caption>
 * <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 * <tr><td>revision</td><td>2</td><td>1 = RFC 5044 frames; 2 = RFC 6581 (an Initiator sends S=1 with
 *     the enhanced data; RFC 6581 §10 forbids S=1 when no enhanced feature is wanted, and IRD/ORD
 *     negotiation is one). A Responder accepts Requests up to this revision (a listener always
 *     accepts Rev 1, RFC 6581 §6).</td></tr>
 * <tr><td>crc</td><td>true</td><td>C bit (RFC 5044 §4.4: CRC is the default; C=0 only on explicit
 *     administrative request, with protection at least as strong as CRC32c).</td></tr>
 * <tr><td>markers</td><td>false</td><td>M bit: ask the peer to insert markers in what it sends
 *     (siw rejects M=1).</td></tr>
 * <tr><td>ird / ord</td><td>16 / 16</td><td>IRD and ORD to advertise, 0…0x3FFF (0x3FFF = no
 *     automatic negotiation, RFC 6581 §9.1).</td></tr>
 * <tr><td>irdLimit</td><td>= ird</td><td>the largest IRD this endpoint can provide: an Initiator
 *     raises its IRD up to it to match the Responder's ORD (else Terminate 0x06); a Responder may
 *     raise its IRD up to it to match the Initiator's ORD.</td></tr>
 * <tr><td>requiredOrd</td><td>0</td><td>Responder only: reject (R=1, needed ORD in the Reply) a
 *     Request whose IRD is below this (RFC 6581 §9.1); 0 never rejects.</td></tr>
 * <tr><td>peerToPeer</td><td>false</td><td>Initiator: request peer-to-peer mode (A=1) offering
 *     {@code rtrTypes}.</td></tr>
 * <tr><td>rtrTypes</td><td>WRITE, READ, SEND</td><td>RTR types supported, in order of preference
 *     (both roles).</td></tr>
 * <tr><td>rtrReplyPolicy</td><td>ALL_SUPPORTED</td><td>Responder: which RTR flags to set.</td></tr>
 * <tr><td>privateData</td><td>empty</td><td>ULP private data for the Request/Reply: ≤ 512 octets,
 *     ≤ 508 with revision 2.</td></tr>
 * <tr><td>startupTimeout</td><td>10 s</td><td>bound on the whole startup (RFC 5044 §7.1.2 rule 10),
 *     including a Responder's user deciding on the Request.</td></tr>
 * <tr><td>requestTimeout</td><td>= startupTimeout</td><td>Responder: how long to wait for the
 *     Request (detects Responder/Responder, RFC 5044 §7.1.2 rule 8).</td></tr>
 * <tr><td>emss</td><td>0 (from the channel, else 1460)</td><td>effective MSS for MULPDU (§4.5).</td></tr>
 * <tr><td>receiveUlpduLimit</td><td>64768</td><td>largest ULPDU_Length accepted (up to 65535: siw
 *     on Linux loopback sends FPDUs of one MSS ≈ 64 KiB).</td></tr>
 * <tr><td>autoAccept</td><td>true</td><td>Responder: accept every valid Request with this
 *     configuration; when false, fire a {@code MpaConnectRequest} event and wait for the user.</td></tr>
 * <tr><td>rejectDataBeforeReply</td><td>by role: Responder true, Initiator false</td><td>Treat octets the
 *     peer may not send yet as a PD_Length mismatch (0x04, close; RFC 5044 §7.1.1, MPA-32): at the
 *     Responder, octets that arrive after the Request before our Reply (the Initiator sends nothing until it
 *     has the Reply, §7.1.2 rule 3; siw closes in this case too); at the Initiator, octets that arrive
 *     together with an accepting Reply (the Responder sends no FPDU before it received one, §7.1.2 rule 4).
 *     When false they are kept and handed to the FPDU decoder. The Initiator keeps them by default because
 *     a Linux siw Responder sends first whenever its application does (interop/FINDINGS.md, R8), so
 *     strictness there would break interoperability; set it explicitly to be strict in both roles.</td></tr>
 * </table>
 */
public final class MpaConfig {

    /** Default startup timeout. */
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(10);
    /** Default IRD and ORD. */
    public static final int DEFAULT_IRD_ORD = 16;

    private final int revision;
    private final boolean crc;
    private final boolean markers;
    private final int ird;
    private final int ord;
    private final int irdLimit;
    private final int requiredOrd;
    private final boolean peerToPeer;
    private final List<RtrType> rtrTypes;
    private final RtrReplyPolicy rtrReplyPolicy;
    private final byte[] privateData;
    private final Duration startupTimeout;
    private final Duration requestTimeout;
    private final int emss;
    private final int receiveUlpduLimit;
    private final boolean autoAccept;
    private final Boolean rejectDataBeforeReply;

    private MpaConfig(Builder b) {
        if (b.revision != 1 && b.revision != 2) {
            throw new IllegalArgumentException("revision must be 1 (RFC 5044) or 2 (RFC 6581): " + b.revision);
        }
        checkIrdOrd("ird", b.ird);
        checkIrdOrd("ord", b.ord);
        int limit = b.irdLimit < 0 ? b.ird : b.irdLimit;
        checkIrdOrd("irdLimit", limit);
        if (limit < b.ird) {
            throw new IllegalArgumentException("irdLimit " + limit + " is below ird " + b.ird);
        }
        checkIrdOrd("requiredOrd", b.requiredOrd);
        if (b.rtrTypes.isEmpty()) {
            throw new IllegalArgumentException("at least one RTR type must be supported (RFC 6581 §9.2)");
        }
        if (EnumSet.copyOf(b.rtrTypes).size() != b.rtrTypes.size()) {
            throw new IllegalArgumentException("rtrTypes lists a type twice: " + b.rtrTypes);
        }
        if (b.peerToPeer && b.revision < 2) {
            throw new IllegalArgumentException("peer-to-peer mode needs revision 2 (RFC 6581)");
        }
        int maxPd = MpaFrame.MAX_PRIVATE_DATA_LENGTH - (b.revision >= 2 ? EnhancedConnectionData.LENGTH : 0);
        if (b.privateData.length > maxPd) {
            throw new IllegalArgumentException("private data of " + b.privateData.length + " octets exceeds "
                    + maxPd + " (RFC 5044 §7.1.1, RFC 6581 §7)");
        }
        Duration request = b.requestTimeout == null ? b.startupTimeout : b.requestTimeout;
        if (b.startupTimeout.isNegative() || b.startupTimeout.isZero() || request.isNegative() || request.isZero()) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        if (request.compareTo(b.startupTimeout) > 0) {
            throw new IllegalArgumentException("requestTimeout exceeds startupTimeout");
        }
        if (b.emss < 0) {
            throw new IllegalArgumentException("emss must be >= 0 (0 = from the channel): " + b.emss);
        }
        if (b.receiveUlpduLimit < Mulpdu.MIN || b.receiveUlpduLimit > FpduLayout.MAX_ULPDU_LENGTH_FIELD) {
            throw new IllegalArgumentException("receiveUlpduLimit must be 128..65535: " + b.receiveUlpduLimit);
        }
        revision = b.revision;
        crc = b.crc;
        markers = b.markers;
        ird = b.ird;
        ord = b.ord;
        irdLimit = limit;
        requiredOrd = b.requiredOrd;
        peerToPeer = b.peerToPeer;
        rtrTypes = List.copyOf(b.rtrTypes);
        rtrReplyPolicy = b.rtrReplyPolicy;
        privateData = b.privateData.clone();
        startupTimeout = b.startupTimeout;
        requestTimeout = request;
        emss = b.emss;
        receiveUlpduLimit = b.receiveUlpduLimit;
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
        b.revision = revision;
        b.crc = crc;
        b.markers = markers;
        b.ird = ird;
        b.ord = ord;
        b.irdLimit = irdLimit;
        b.requiredOrd = requiredOrd;
        b.peerToPeer = peerToPeer;
        b.rtrTypes = new ArrayList<>(rtrTypes);
        b.rtrReplyPolicy = rtrReplyPolicy;
        b.privateData = privateData.clone();
        b.startupTimeout = startupTimeout;
        // a requestTimeout equal to the startup timeout was (or behaves as) the derived default: keep it
        // derived, so that lowering startupTimeout on the copy does not trip the requestTimeout check
        b.requestTimeout = requestTimeout.equals(startupTimeout) ? null : requestTimeout;
        b.emss = emss;
        b.receiveUlpduLimit = receiveUlpduLimit;
        b.autoAccept = autoAccept;
        b.rejectDataBeforeReply = rejectDataBeforeReply;
        return b;
    }

    public int revision() { return revision; }
    public boolean crc() { return crc; }
    public boolean markers() { return markers; }
    public int ird() { return ird; }
    public int ord() { return ord; }
    public int irdLimit() { return irdLimit; }
    public int requiredOrd() { return requiredOrd; }
    public boolean peerToPeer() { return peerToPeer; }
    /** Supported RTR types, most preferred first. */
    public List<RtrType> rtrTypes() { return rtrTypes; }
    public RtrReplyPolicy rtrReplyPolicy() { return rtrReplyPolicy; }
    /** ULP private data (a copy). */
    public byte[] privateData() { return privateData.clone(); }
    public Duration startupTimeout() { return startupTimeout; }
    public Duration requestTimeout() { return requestTimeout; }
    /** Configured EMSS; 0 = ask the channel, else {@link Mulpdu#DEFAULT_EMSS}. */
    public int emss() { return emss; }
    public int receiveUlpduLimit() { return receiveUlpduLimit; }
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
        return "MpaConfig[rev=" + revision + " crc=" + crc + " markers=" + markers + " ird=" + ird + " ord=" + ord
                + " irdLimit=" + irdLimit + " requiredOrd=" + requiredOrd + " p2p=" + peerToPeer + " rtr=" + rtrTypes
                + " " + rtrReplyPolicy + " pd=" + privateData.length + " startupTimeout=" + startupTimeout
                + " requestTimeout=" + requestTimeout + " emss=" + emss + " rxLimit=" + receiveUlpduLimit
                + " autoAccept=" + autoAccept + " rejectDataBeforeReply=" + rejectDataBeforeReply + "]";
    }

    /** Builder of {@link MpaConfig}; {@link #build()} validates. */
    public static final class Builder {
        private int revision = 2;
        private boolean crc = true;
        private boolean markers;
        private int ird = DEFAULT_IRD_ORD;
        private int ord = DEFAULT_IRD_ORD;
        private int irdLimit = -1;
        private int requiredOrd;
        private boolean peerToPeer;
        private List<RtrType> rtrTypes = new ArrayList<>(List.of(RtrType.WRITE, RtrType.READ, RtrType.SEND));
        private RtrReplyPolicy rtrReplyPolicy = RtrReplyPolicy.ALL_SUPPORTED;
        private byte[] privateData = new byte[0];
        private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;
        private Duration requestTimeout;
        private int emss;
        private int receiveUlpduLimit = Mulpdu.MAX;
        private boolean autoAccept = true;
        private Boolean rejectDataBeforeReply;

        private Builder() {}

        public Builder revision(int v) { revision = v; return this; }
        public Builder crc(boolean v) { crc = v; return this; }
        public Builder markers(boolean v) { markers = v; return this; }
        public Builder ird(int v) { ird = v; return this; }
        public Builder ord(int v) { ord = v; return this; }
        /** Largest IRD this endpoint can provide; defaults to {@code ird}. */
        public Builder irdLimit(int v) { irdLimit = v; return this; }
        public Builder requiredOrd(int v) { requiredOrd = v; return this; }
        public Builder peerToPeer(boolean v) { peerToPeer = v; return this; }
        /** Supported RTR types, most preferred first (at least one). */
        public Builder rtrTypes(RtrType... v) { rtrTypes = new ArrayList<>(List.of(v)); return this; }
        public Builder rtrTypes(List<RtrType> v) { rtrTypes = new ArrayList<>(v); return this; }
        public Builder rtrReplyPolicy(RtrReplyPolicy v) { rtrReplyPolicy = java.util.Objects.requireNonNull(v); return this; }
        public Builder privateData(byte[] v) { privateData = v == null ? new byte[0] : v.clone(); return this; }
        public Builder startupTimeout(Duration v) { startupTimeout = java.util.Objects.requireNonNull(v); return this; }
        public Builder requestTimeout(Duration v) { requestTimeout = v; return this; }
        public Builder emss(int v) { emss = v; return this; }
        public Builder receiveUlpduLimit(int v) { receiveUlpduLimit = v; return this; }
        public Builder autoAccept(boolean v) { autoAccept = v; return this; }
        public Builder rejectDataBeforeReply(boolean v) { rejectDataBeforeReply = v; return this; }

        public MpaConfig build() {
            return new MpaConfig(this);
        }
    }
}
