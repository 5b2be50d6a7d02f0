package org.iwarp4j.verbs.cm;

import org.iwarp4j.common.MpaOptions;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Parameters of {@code rdma_connect} ({@code rdma_conn_param}) plus the MPA and TCP settings; build with
 * {@link #builder()}, whose setters name the defaults.
 *
 * @param mpa                   the MPA settings of the Request (revision, CRC, markers, peer-to-peer mode, ...)
 * @param privateData           ULP private data of the MPA Request: PD_Length ≤ 512 octets including the 4-octet
 *                              RFC 6581 block (so ≤ 508 with revision 2), and within the peer profile's
 *                              {@link PeerProfile#maxPdLength()} (Linux siw: 256, so 252 with revision 2)
 * @param ird                   IRD to offer; empty: the queue pair's
 * @param ord                   ORD to ask for; empty: the queue pair's
 * @param connectTimeout        bound on the TCP connect
 * @param disconnectTimeout     bound on a graceful disconnect before it turns abortive
 * @param pcapFile              write this connection's TCP traffic to a pcap file (Wireshark, {@code iwarp explain});
 *                              listeners and connections of this JVM that capture to the same path share one file
 * @param peerProfile           what to tolerate from the peer ({@link PeerProfile#RFC_STRICT} by default)
 * @param eventListener         hears the {@link CmEvent}s of this connection
 * @param keepalive             TCP keepalive and {@code TCP_USER_TIMEOUT} ({@link TcpKeepalive}); empty: off
 * @param replyPrivateDataCheck decides whether the private data (ULP part) of an accepting MPA Reply is
 *                              acceptable. When it is not, the Initiator leaves MPA without sending anything
 *                              (RFC 5044 §7.1.2 rule 3), the connect fails with {@link CmEvent.ConnectError}
 *                              and the TCP connection is closed. Default: accept any.
 */
public record ConnectOptions(MpaOptions mpa, byte[] privateData, OptionalInt ird, OptionalInt ord,
                             Duration connectTimeout, Duration disconnectTimeout, Optional<Path> pcapFile,
                             PeerProfile peerProfile, CmEventListener eventListener,
                             Optional<TcpKeepalive> keepalive, Predicate<byte[]> replyPrivateDataCheck) {

    /** Checks the components. */
    public ConnectOptions {
        Objects.requireNonNull(mpa, "mpa");
        privateData = PrivateData.check(privateData, mpa.revision());
        PrivateData.checkDepth("ird", ird);
        PrivateData.checkDepth("ord", ord);
        positive("connectTimeout", connectTimeout);
        positive("disconnectTimeout", disconnectTimeout);
        Objects.requireNonNull(pcapFile, "pcapFile");
        Objects.requireNonNull(peerProfile, "peerProfile");
        peerProfile.checkPrivateData(privateData, mpa.revision());
        Objects.requireNonNull(eventListener, "eventListener");
        Objects.requireNonNull(keepalive, "keepalive");
        Objects.requireNonNull(replyPrivateDataCheck, "replyPrivateDataCheck");
    }

    static void positive(String name, Duration d) {
        Objects.requireNonNull(d, name + " is mandatory");
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }

    /**
     * The private data.
     *
     * @return a copy
     */
    @Override
    public byte[] privateData() {
        return privateData.clone();
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
    public static ConnectOptions defaults() {
        return builder().build();
    }

    /**
     * A builder starting from these options.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.mpa = mpa;
        b.privateData = privateData;
        b.ird = ird;
        b.ord = ord;
        b.connectTimeout = connectTimeout;
        b.disconnectTimeout = disconnectTimeout;
        b.pcapFile = pcapFile;
        b.peerProfile = peerProfile;
        b.eventListener = eventListener;
        b.keepalive = keepalive;
        b.replyPrivateDataCheck = replyPrivateDataCheck;
        return b;
    }

    /** Builder; each setter names its default. */
    public static final class Builder {
        private MpaOptions mpa = MpaOptions.defaults();
        private byte[] privateData = new byte[0];
        private OptionalInt ird = OptionalInt.empty();
        private OptionalInt ord = OptionalInt.empty();
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration disconnectTimeout = Duration.ofSeconds(5);
        private Optional<Path> pcapFile = Optional.empty();
        private PeerProfile peerProfile = PeerProfile.RFC_STRICT;
        private CmEventListener eventListener = CmEventListener.NONE;
        private Optional<TcpKeepalive> keepalive = Optional.empty();
        private Predicate<byte[]> replyPrivateDataCheck = pd -> true;

        private Builder() {}

        /** @param v default {@link MpaOptions#defaults()} @return this */
        public Builder mpa(MpaOptions v) { mpa = Objects.requireNonNull(v); return this; }
        /**
         * Changes some MPA settings, e.g. {@code .mpa(m -> m.crc(false).peerToPeer(RtrType.WRITE))}.
         *
         * @param change applied to a builder of the current MPA settings
         * @return this
         */
        public Builder mpa(UnaryOperator<MpaOptions.Builder> change) {
            mpa = change.apply(mpa.toBuilder()).build();
            return this;
        }
        /** @param v default none @return this */
        public Builder privateData(byte[] v) { privateData = v; return this; }
        /** @param v default: the queue pair's @return this */
        public Builder ird(int v) { ird = OptionalInt.of(v); return this; }
        /** @param v default: the queue pair's @return this */
        public Builder ord(int v) { ord = OptionalInt.of(v); return this; }
        /** @param v default 10 s @return this */
        public Builder connectTimeout(Duration v) { connectTimeout = v; return this; }
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
        /** @param v default: accept any @return this */
        public Builder replyPrivateDataCheck(Predicate<byte[]> v) { replyPrivateDataCheck = v; return this; }

        /**
         * Validates and builds.
         *
         * @return the options
         */
        public ConnectOptions build() {
            return new ConnectOptions(mpa, privateData, ird, ord, connectTimeout, disconnectTimeout, pcapFile,
                    peerProfile, eventListener, keepalive, replyPrivateDataCheck);
        }
    }
}
