package org.iwarp4j.common;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

/**
 * The MPA settings of a connection (RFC 5044, RFC 6581), the same for both roles: what an Initiator puts
 * in its MPA Request and what a Responder answers with and accepts. Connect options, listen options and
 * the MPA layer itself all take this one record; its {@link Builder} holds the defaults, which interoperate
 * with Linux siw.
 *
 * @param revision          1 (RFC 5044) or 2 (RFC 6581, with the enhanced connection data that carries
 *                          IRD/ORD and peer-to-peer mode; Linux siw needs it for RDMA Reads). A Responder
 *                          accepts Requests up to this revision and always Rev 1 (RFC 6581 §6).
 * @param crc               the C bit: ask for CRC32c. CRCs are on if either side asks (RFC 5044 §4.4,
 *                          where CRC is the default and turning it off needs protection at least as strong).
 * @param markers           the M bit: ask the peer to insert markers every 512 octets of what it sends
 *                          (RFC 5044 §4.3). Linux siw refuses markers.
 * @param peerToPeer        Initiator: ask for RFC 6581 peer-to-peer mode (A=1), offering {@code rtrTypes}; the
 *                          Initiator then sends an RTR first, which lets the Responder send at once. A
 *                          Responder answers the mode the Request asks for and ignores this setting.
 * @param rtrTypes          the RTR types supported in peer-to-peer mode, most preferred first, at least one
 *                          (RFC 6581 §9.2)
 * @param startupTimeout    bound on the whole MPA startup, Request to Reply (RFC 5044 §7.1.2 rule 10),
 *                          including a Responder's decision on a Request (Linux siw waits 10 s for a Reply)
 * @param emss              effective MSS for the size of the FPDUs sent (RFC 5044 §4.5); 0 = ask TCP
 * @param receiveUlpduLimit the largest ULPDU_Length accepted from the peer, {@value #MIN_ULPDU_LIMIT} to
 *                          {@value #MAX_ULPDU_LIMIT}; a larger one fails the connection. Linux siw on
 *                          loopback sends FPDUs of one MSS, about 64 KiB, hence the default of 65535.
 */
public record MpaOptions(int revision, boolean crc, boolean markers, boolean peerToPeer, List<RtrType> rtrTypes,
                         Duration startupTimeout, int emss, int receiveUlpduLimit) {

    /** The smallest MULPDU RFC 5044 §4.5 lets a sender use, and so the smallest receive limit. */
    public static final int MIN_ULPDU_LIMIT = 128;
    /** ULPDU_Length is a 16-bit field (RFC 5044 §4.1). */
    public static final int MAX_ULPDU_LIMIT = 65535;

    public MpaOptions {
        if (revision != 1 && revision != 2) {
            throw new IllegalArgumentException("MPA revision must be 1 (RFC 5044) or 2 (RFC 6581): " + revision);
        }
        rtrTypes = List.copyOf(rtrTypes);
        if (rtrTypes.isEmpty()) {
            throw new IllegalArgumentException("at least one RTR type must be supported (RFC 6581 §9.2)");
        }
        if (EnumSet.copyOf(rtrTypes).size() != rtrTypes.size()) {
            throw new IllegalArgumentException("rtrTypes lists a type twice: " + rtrTypes);
        }
        if (peerToPeer && revision < 2) {
            throw new IllegalArgumentException("peer-to-peer mode needs MPA revision 2 (RFC 6581)");
        }
        Objects.requireNonNull(startupTimeout, "startupTimeout");
        if (startupTimeout.isNegative() || startupTimeout.isZero()) {
            throw new IllegalArgumentException("startupTimeout must be positive: " + startupTimeout);
        }
        if (emss < 0) {
            throw new IllegalArgumentException("emss must be >= 0 (0 = ask TCP): " + emss);
        }
        if (receiveUlpduLimit < MIN_ULPDU_LIMIT || receiveUlpduLimit > MAX_ULPDU_LIMIT) {
            throw new IllegalArgumentException("receiveUlpduLimit must be " + MIN_ULPDU_LIMIT + ".." + MAX_ULPDU_LIMIT
                    + ": " + receiveUlpduLimit);
        }
    }

    /** The defaults: revision 2, CRC on, no markers, client-server mode, 10 s startup, EMSS from TCP. */
    public static MpaOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.revision = revision;
        b.crc = crc;
        b.markers = markers;
        b.peerToPeer = peerToPeer;
        b.rtrTypes = rtrTypes;
        b.startupTimeout = startupTimeout;
        b.emss = emss;
        b.receiveUlpduLimit = receiveUlpduLimit;
        return b;
    }

    /** Builds {@link MpaOptions}; every setting starts at its default, {@link #build()} validates. */
    public static final class Builder {
        private int revision = 2;
        private boolean crc = true;
        private boolean markers;
        private boolean peerToPeer;
        private List<RtrType> rtrTypes = List.of(RtrType.WRITE, RtrType.READ, RtrType.SEND);
        private Duration startupTimeout = Duration.ofSeconds(10);
        private int emss;
        private int receiveUlpduLimit = MAX_ULPDU_LIMIT;

        private Builder() {}

        /** 1 or 2; default 2. */
        public Builder revision(int v) { revision = v; return this; }
        /** Default on. */
        public Builder crc(boolean v) { crc = v; return this; }
        /** Default off. */
        public Builder markers(boolean v) { markers = v; return this; }
        /** Default off (client-server mode). */
        public Builder peerToPeer(boolean v) { peerToPeer = v; return this; }
        /** Peer-to-peer mode offering (Initiator) or supporting (Responder) these RTR types, most preferred first. */
        public Builder peerToPeer(RtrType... offered) { peerToPeer = true; rtrTypes = List.of(offered); return this; }
        /** Default Write, Read, Send. */
        public Builder rtrTypes(RtrType... v) { rtrTypes = List.of(v); return this; }
        public Builder rtrTypes(List<RtrType> v) { rtrTypes = List.copyOf(v); return this; }
        /** Default 10 s. */
        public Builder startupTimeout(Duration v) { startupTimeout = v; return this; }
        /** Default 0: ask TCP. */
        public Builder emss(int v) { emss = v; return this; }
        /** Default 65535. */
        public Builder receiveUlpduLimit(int v) { receiveUlpduLimit = v; return this; }

        public MpaOptions build() {
            return new MpaOptions(revision, crc, markers, peerToPeer, rtrTypes, startupTimeout, emss,
                    receiveUlpduLimit);
        }
    }
}
