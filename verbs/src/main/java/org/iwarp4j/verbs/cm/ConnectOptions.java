package org.iwarp4j.verbs.cm;

import org.iwarp4j.common.RtrType;
import org.iwarp4j.rdmap.terminate.TerminateLayout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Parameters of {@code rdma_connect} ({@code rdma_conn_param}) plus the MPA and TCP settings. Defaults
 * interoperate with Linux siw (siw-interop.md): MPA revision 2 with the enhanced block, no markers,
 * client-server mode, FPDUs of at most one MSS.
 *
 * @param privateData       ULP private data of the MPA Request: ≤ 512 octets including the 4-octet
 *                          RFC 6581 block (so ≤ 508 with revision 2); more than 252 works with us but
 *                          Linux siw drops it (a warning is logged)
 * @param mpaRevision       1 (RFC 5044) or 2 (RFC 6581; needed for IRD/ORD negotiation with siw)
 * @param crc               ask for CRC32c (C=1). RFC 5044 §4.4 makes CRC the default; siw accepts both
 * @param markers           ask the peer to insert markers (M=1); siw refuses
 * @param rtrTypes          peer-to-peer mode (A=1) offering these RTR types in order of preference;
 *                          empty = client-server mode (siw default)
 * @param ird               IRD to offer, or -1 for the queue pair's
 * @param ord               ORD to ask for, or -1 for the queue pair's
 * @param connectTimeout    bound on the TCP connect (mandatory)
 * @param mpaStartupTimeout bound on the MPA Request/Reply exchange (siw waits 10 s for a Reply)
 * @param disconnectTimeout bound on a graceful disconnect before it turns abortive
 * @param emss              effective MSS for the FPDU size (RFC 5044 §4.5), 0 = ask TCP
 * @param receiveUlpduLimit largest ULPDU accepted from the peer (up to 65535: siw on loopback sends ~64 KiB)
 * @param pcapFile          write this connection's TCP traffic to a pcap file (Wireshark), or {@code null}
 * @param peerTerminateLayout how to read an ambiguous Terminate control word from the peer:
 *                          {@link TerminateLayout#SIW_MIRRORED} when the peer is Linux siw (siw-interop §F)
 * @param eventListener     hears the {@link CmEvent}s of this connection
 * @param replyPrivateDataCheck decides whether the private data (ULP part) of an accepting MPA Reply is
 *                          acceptable. When it is not, the Initiator leaves MPA without sending anything
 *                          (RFC 5044 §7.1.2 rule 3, MPA-37), the connect fails with
 *                          {@link CmEvent#CONNECT_ERROR} and the TCP connection is closed. Default: accept any.
 * @param firstFpduNudge    {@link Duration#ZERO} (default): off. Otherwise, if nothing at all arrives from the
 *                          Responder within this time after our first FPDU went out, send one zero-length RDMA
 *                          Write (STag 1, TO 0). RFC 5041 §5.2 [DDP-20] forbids checking a zero-length tagged
 *                          segment and RFC 5040 §5.1 delivers nothing for a Write, so this is a no-op at every
 *                          conforming peer; at a Linux siw Responder it releases a first FPDU that siw's accept
 *                          race left unread in its socket (the FPDU arrived between siw's Reply and the switch of
 *                          its socket to the queue pair; any later octets make siw read both;
 *                          interop/FINDINGS.md M15). Sent at most once per connection.
 *
 * <p>Octets that arrive together with an accepting Reply, before the Initiator sent its first FPDU, are
 * kept and read as FPDUs (RFC 5044 §7.1.2 rule 4 forbids the Responder to send them, but a Linux siw
 * Responder does whenever its application sends first — interop/FINDINGS.md R8). If they are not valid
 * FPDUs they fail as any bad FPDU does (MPA error, Terminate), never silently (MPA-32).
 */
public record ConnectOptions(byte[] privateData, int mpaRevision, boolean crc, boolean markers, List<RtrType> rtrTypes,
                             int ird, int ord, Duration connectTimeout, Duration mpaStartupTimeout,
                             Duration disconnectTimeout, int emss, int receiveUlpduLimit, Path pcapFile,
                             TerminateLayout peerTerminateLayout, CmEventListener eventListener,
                             Predicate<byte[]> replyPrivateDataCheck, Duration firstFpduNudge) {

    public ConnectOptions {
        if (mpaRevision != 1 && mpaRevision != 2) {
            throw new IllegalArgumentException("mpaRevision must be 1 or 2: " + mpaRevision);
        }
        privateData = PrivateData.check(privateData, mpaRevision);
        rtrTypes = List.copyOf(rtrTypes);
        if (!rtrTypes.isEmpty() && mpaRevision < 2) {
            throw new IllegalArgumentException("peer-to-peer mode (RTR) needs MPA revision 2 (RFC 6581)");
        }
        positive("connectTimeout", connectTimeout);
        positive("mpaStartupTimeout", mpaStartupTimeout);
        positive("disconnectTimeout", disconnectTimeout);
        Objects.requireNonNull(peerTerminateLayout, "peerTerminateLayout");
        Objects.requireNonNull(eventListener, "eventListener");
        Objects.requireNonNull(replyPrivateDataCheck, "replyPrivateDataCheck");
        Objects.requireNonNull(firstFpduNudge, "firstFpduNudge (Duration.ZERO = off)");
        if (firstFpduNudge.isNegative()) {
            throw new IllegalArgumentException("firstFpduNudge must not be negative: " + firstFpduNudge);
        }
    }

    static void positive(String name, Duration d) {
        Objects.requireNonNull(d, name + " is mandatory");
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    public static Builder builder() {
        return new Builder();
    }

    public static ConnectOptions defaults() {
        return builder().build();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.privateData = privateData;
        b.mpaRevision = mpaRevision;
        b.crc = crc;
        b.markers = markers;
        b.rtrTypes = rtrTypes;
        b.ird = ird;
        b.ord = ord;
        b.connectTimeout = connectTimeout;
        b.mpaStartupTimeout = mpaStartupTimeout;
        b.disconnectTimeout = disconnectTimeout;
        b.emss = emss;
        b.receiveUlpduLimit = receiveUlpduLimit;
        b.pcapFile = pcapFile;
        b.peerTerminateLayout = peerTerminateLayout;
        b.eventListener = eventListener;
        b.replyPrivateDataCheck = replyPrivateDataCheck;
        b.firstFpduNudge = firstFpduNudge;
        return b;
    }

    /** Defaults: rev 2, CRC on, no markers, client-server, timeouts 10 s / 10 s / 5 s, no first-FPDU nudge. */
    public static final class Builder {
        private byte[] privateData = new byte[0];
        private int mpaRevision = 2;
        private boolean crc = true;
        private boolean markers;
        private List<RtrType> rtrTypes = List.of();
        private int ird = -1;
        private int ord = -1;
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration mpaStartupTimeout = Duration.ofSeconds(10);
        private Duration disconnectTimeout = Duration.ofSeconds(5);
        private int emss;
        private int receiveUlpduLimit = 65535;
        private Path pcapFile;
        private TerminateLayout peerTerminateLayout = TerminateLayout.RFC;
        private CmEventListener eventListener = CmEventListener.NONE;
        private Predicate<byte[]> replyPrivateDataCheck = pd -> true;
        private Duration firstFpduNudge = Duration.ZERO;

        private Builder() {}

        public Builder privateData(byte[] v) { privateData = v; return this; }
        public Builder mpaRevision(int v) { mpaRevision = v; return this; }
        public Builder crc(boolean v) { crc = v; return this; }
        public Builder markers(boolean v) { markers = v; return this; }
        public Builder peerToPeer(RtrType... v) { rtrTypes = List.of(v); return this; }
        public Builder ird(int v) { ird = v; return this; }
        public Builder ord(int v) { ord = v; return this; }
        public Builder connectTimeout(Duration v) { connectTimeout = v; return this; }
        public Builder mpaStartupTimeout(Duration v) { mpaStartupTimeout = v; return this; }
        public Builder disconnectTimeout(Duration v) { disconnectTimeout = v; return this; }
        public Builder emss(int v) { emss = v; return this; }
        public Builder receiveUlpduLimit(int v) { receiveUlpduLimit = v; return this; }
        public Builder pcapFile(Path v) { pcapFile = v; return this; }
        public Builder peerTerminateLayout(TerminateLayout v) { peerTerminateLayout = v; return this; }
        public Builder eventListener(CmEventListener v) { eventListener = v; return this; }
        public Builder replyPrivateDataCheck(Predicate<byte[]> v) { replyPrivateDataCheck = v; return this; }
        /** See {@link ConnectOptions#firstFpduNudge()}; {@link Duration#ZERO} turns it off. */
        public Builder firstFpduNudge(Duration v) { firstFpduNudge = v; return this; }

        public ConnectOptions build() {
            return new ConnectOptions(privateData, mpaRevision, crc, markers, rtrTypes, ird, ord, connectTimeout,
                    mpaStartupTimeout, disconnectTimeout, emss, receiveUlpduLimit, pcapFile, peerTerminateLayout,
                    eventListener, replyPrivateDataCheck, firstFpduNudge);
        }
    }
}
