package org.iwarp4j.verbs.cm;

import org.iwarp4j.common.MpaOptions;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Settings of a listener and of the MPA Responder it runs on every connection; build with
 * {@link #builder()}, whose setters name the defaults.
 *
 * @param backlog           TCP accept backlog
 * @param maxConnections    connections of this listener at once, from TCP accept to TCP close; the MPA Request of
 *                          one more is answered with a Reply with R=1 whose private data says
 *                          {@code "iwarp4j: maxConnections = N reached"}, and the connection closed
 * @param mpa               the MPA settings: highest revision accepted (Rev 1 Requests are always accepted,
 *                          RFC 6581 §6; a Rev 2 Request gets a Rev 2 Reply), the C and M bits of the Reply, the
 *                          RTR types supported in peer-to-peer mode (RFC 6581 §9.2: the Reply sets each offered one
 *                          it supports, else its most preferred), and the startup timeout, which bounds the whole
 *                          startup of an accepted connection (an unanswered request is rejected before it runs out)
 * @param requiredOrd       reject (R=1 with this ORD in the Reply, RFC 6581 §9.1) a Request whose IRD is below
 *                          it; 0 never rejects for that
 * @param disconnectTimeout bound on a graceful disconnect before it turns abortive
 * @param pcapFile          write every accepted connection's traffic to this pcap file; listeners and connections
 *                          of this JVM that capture to the same path share one file while any of them is open
 * @param peerProfile       what to tolerate from peers ({@link PeerProfile#RFC_STRICT} by default)
 * @param eventListener     hears the {@link CmEvent}s of the listener's connections
 * @param keepalive         TCP keepalive and {@code TCP_USER_TIMEOUT} of every accepted connection
 *                          ({@link TcpKeepalive}); empty: off
 */
public record ListenOptions(int backlog, int maxConnections, MpaOptions mpa, int requiredOrd,
                            Duration disconnectTimeout, Optional<Path> pcapFile, PeerProfile peerProfile,
                            CmEventListener eventListener, Optional<TcpKeepalive> keepalive) {

    /** Checks the components. */
    public ListenOptions {
        if (backlog < 1) {
            throw new IllegalArgumentException("backlog must be positive: " + backlog);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be positive: " + maxConnections);
        }
        Objects.requireNonNull(mpa, "mpa");
        if (requiredOrd < 0 || requiredOrd > PrivateData.MAX_DEPTH) {
            throw new IllegalArgumentException("requiredOrd must be 0..0x3FFF: " + requiredOrd);
        }
        ConnectOptions.positive("disconnectTimeout", disconnectTimeout);
        Objects.requireNonNull(pcapFile, "pcapFile");
        Objects.requireNonNull(peerProfile, "peerProfile");
        Objects.requireNonNull(eventListener, "eventListener");
        Objects.requireNonNull(keepalive, "keepalive");
    }

    /**
     * A builder with the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The defaults.
     *
     * @return {@code builder().build()}
     */
    public static ListenOptions defaults() {
        return builder().build();
    }

    /** Builder; each setter names its default. */
    public static final class Builder {
        private int backlog = 128;
        private int maxConnections = 1024;
        private MpaOptions mpa = MpaOptions.defaults();
        private int requiredOrd;
        private Duration disconnectTimeout = Duration.ofSeconds(5);
        private Optional<Path> pcapFile = Optional.empty();
        private PeerProfile peerProfile = PeerProfile.RFC_STRICT;
        private CmEventListener eventListener = CmEventListener.NONE;
        private Optional<TcpKeepalive> keepalive = Optional.empty();

        private Builder() {}

        /** @param v default 128 @return this */
        public Builder backlog(int v) { backlog = v; return this; }
        /** @param v default 1024 @return this */
        public Builder maxConnections(int v) { maxConnections = v; return this; }
        /** @param v default {@link MpaOptions#defaults()} @return this */
        public Builder mpa(MpaOptions v) { mpa = Objects.requireNonNull(v); return this; }
        /**
         * Changes some MPA settings, e.g. {@code .mpa(m -> m.crc(false))}.
         *
         * @param change applied to a builder of the current MPA settings
         * @return this
         */
        public Builder mpa(UnaryOperator<MpaOptions.Builder> change) {
            mpa = change.apply(mpa.toBuilder()).build();
            return this;
        }
        /** @param v default 0: never reject for a small IRD @return this */
        public Builder requiredOrd(int v) { requiredOrd = v; return this; }
        /** @param v default 5 s @return this */
        public Builder disconnectTimeout(Duration v) { disconnectTimeout = v; return this; }
        /** @param v default none @return this */
        public Builder pcapFile(Path v) { pcapFile = Optional.ofNullable(v); return this; }
        /** @param v default {@link PeerProfile#RFC_STRICT} @return this */
        public Builder peerProfile(PeerProfile v) { peerProfile = v; return this; }
        /** @param v default {@link CmEventListener#NONE} @return this */
        public Builder eventListener(CmEventListener v) { eventListener = v; return this; }
        /** @param v default none (off); {@code null}: off @return this */
        public Builder keepalive(TcpKeepalive v) { keepalive = Optional.ofNullable(v); return this; }

        /**
         * Validates and builds.
         *
         * @return the options
         */
        public ListenOptions build() {
            return new ListenOptions(backlog, maxConnections, mpa, requiredOrd, disconnectTimeout, pcapFile,
                    peerProfile, eventListener, keepalive);
        }
    }
}
