package org.iwarp4j.verbs.cm;

import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.rdmap.terminate.TerminateLayout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

/**
 * Settings of a listener and of the MPA Responder it runs on every connection.
 *
 * @param backlog           TCP accept backlog
 * @param mpaRevision       highest MPA revision accepted (Rev 1 Requests are always accepted, RFC 6581 §6);
 *                          a Rev 2 Request gets a Rev 2 Reply with the enhanced block (siw needs it)
 * @param crc               C bit of our Reply (CRC is on if either side asks, RFC 5044 §4.4)
 * @param markers           M bit of our Reply (ask the Initiator for markers; siw refuses)
 * @param mpaStartupTimeout bound on the whole MPA startup of an accepted TCP connection; an unanswered
 *                          request is rejected before it runs out
 * @param disconnectTimeout bound on a graceful disconnect before it turns abortive
 * @param emss              effective MSS for the FPDU size, 0 = ask TCP
 * @param receiveUlpduLimit largest ULPDU accepted
 * @param pcapFile          write every accepted connection's traffic to this pcap file (one file, appended
 *                          per connection: use one listener per capture), or {@code null}
 * @param peerTerminateLayout how to read an ambiguous Terminate control word from peers (see
 *                          {@link ConnectOptions#peerTerminateLayout()})
 * @param eventListener     hears the {@link CmEvent}s of the listener's connections
 * @param rtrTypes          the RTR types this Responder supports in peer-to-peer mode, most preferred first
 *                          (RFC 6581 §9.2: the Reply sets each offered one it supports, else its most
 *                          preferred); default Write, Read, Send
 * @param requiredOrd       reject (R=1 with this ORD in the Reply, RFC 6581 §9.1) a Request whose IRD is below
 *                          it; 0 (default) never rejects for that
 */
public record ListenOptions(int backlog, int mpaRevision, boolean crc, boolean markers, Duration mpaStartupTimeout,
                            Duration disconnectTimeout, int emss, int receiveUlpduLimit, Path pcapFile,
                            TerminateLayout peerTerminateLayout, CmEventListener eventListener,
                            List<RtrType> rtrTypes, int requiredOrd) {

    public ListenOptions {
        if (backlog < 1) {
            throw new IllegalArgumentException("backlog must be positive: " + backlog);
        }
        if (mpaRevision != 1 && mpaRevision != 2) {
            throw new IllegalArgumentException("mpaRevision must be 1 or 2: " + mpaRevision);
        }
        ConnectOptions.positive("mpaStartupTimeout", mpaStartupTimeout);
        ConnectOptions.positive("disconnectTimeout", disconnectTimeout);
        Objects.requireNonNull(peerTerminateLayout, "peerTerminateLayout");
        Objects.requireNonNull(eventListener, "eventListener");
        rtrTypes = List.copyOf(rtrTypes);
        if (rtrTypes.isEmpty() || EnumSet.copyOf(rtrTypes).size() != rtrTypes.size()) {
            throw new IllegalArgumentException("rtrTypes must list at least one type, each once: " + rtrTypes);
        }
        if (requiredOrd < 0 || requiredOrd > 0x3FFF) {
            throw new IllegalArgumentException("requiredOrd must be 0..0x3FFF: " + requiredOrd);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public static ListenOptions defaults() {
        return builder().build();
    }

    /**
     * Defaults: backlog 128, rev 2, CRC on, no markers, 10 s startup, 5 s disconnect, RTR types Write, Read,
     * Send, no required ORD.
     */
    public static final class Builder {
        private int backlog = 128;
        private int mpaRevision = 2;
        private boolean crc = true;
        private boolean markers;
        private Duration mpaStartupTimeout = Duration.ofSeconds(10);
        private Duration disconnectTimeout = Duration.ofSeconds(5);
        private int emss;
        private int receiveUlpduLimit = 65535;
        private Path pcapFile;
        private TerminateLayout peerTerminateLayout = TerminateLayout.RFC;
        private CmEventListener eventListener = CmEventListener.NONE;
        private List<RtrType> rtrTypes = MpaConfig.defaults().rtrTypes();
        private int requiredOrd;

        private Builder() {}

        public Builder backlog(int v) { backlog = v; return this; }
        public Builder mpaRevision(int v) { mpaRevision = v; return this; }
        public Builder crc(boolean v) { crc = v; return this; }
        public Builder markers(boolean v) { markers = v; return this; }
        public Builder mpaStartupTimeout(Duration v) { mpaStartupTimeout = v; return this; }
        public Builder disconnectTimeout(Duration v) { disconnectTimeout = v; return this; }
        public Builder emss(int v) { emss = v; return this; }
        public Builder receiveUlpduLimit(int v) { receiveUlpduLimit = v; return this; }
        public Builder pcapFile(Path v) { pcapFile = v; return this; }
        public Builder peerTerminateLayout(TerminateLayout v) { peerTerminateLayout = v; return this; }
        public Builder eventListener(CmEventListener v) { eventListener = v; return this; }
        public Builder rtrTypes(RtrType... v) { rtrTypes = List.of(v); return this; }
        public Builder requiredOrd(int v) { requiredOrd = v; return this; }

        public ListenOptions build() {
            return new ListenOptions(backlog, mpaRevision, crc, markers, mpaStartupTimeout, disconnectTimeout, emss,
                    receiveUlpduLimit, pcapFile, peerTerminateLayout, eventListener, rtrTypes, requiredOrd);
        }
    }
}
