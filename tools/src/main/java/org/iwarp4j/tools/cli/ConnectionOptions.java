package org.iwarp4j.tools.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.PeerProfile;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The MPA connection parameters a connecting tool lets its user choose, for either role (the Request of a
 * client, the Reply of a server): MPA revision (RFC 5044 / RFC 6581), peer-to-peer mode and its RTR types
 * (RFC 6581 §9.2), IRD/ORD (RFC 6581 §9.1), ULP private data (RFC 5044 §7.1.1), what to tolerate from the peer
 * ({@link PeerProfile}: Linux siw by default) and the client's first-FPDU nudge (a Linux siw accept race,
 * interop/FINDINGS.md M15). Each tool keeps its own defaults (e.g. rping's IRD = ORD = 1) where an option is not
 * given.
 */
public final class ConnectionOptions {

    @Option(names = "--mpa-rev", paramLabel = "1|2", defaultValue = "2",
            description = "MPA revision: 2 (RFC 6581, default: enhanced block with IRD/ORD, what Linux siw needs for "
                    + "RDMA Reads) or 1 (RFC 5044). A server accepts Rev 1 Requests either way")
    int mpaRevision = 2;

    @Option(names = "--p2p", paramLabel = "write|read|send", split = ",",
            converter = RtrConverter.class,
            description = "RFC 6581 peer-to-peer mode. Client: ask for it (A=1) offering these RTR types in order of "
                    + "preference. Server: support only these types (the Reply sets each offered one it supports, "
                    + "else its first). Linux siw never picks send")
    List<RtrType> p2p = new ArrayList<>();

    @Option(names = "--ird", paramLabel = "N",
            description = "IRD to put in the Request (client) or the accepting Reply (server; raised to the "
                    + "client's ORD when that is larger, as RFC 6581 §9.1 allows), 0..16383 (default: the tool's "
                    + "own, e.g. rping 1)")
    Integer ird;

    @Option(names = "--ord", paramLabel = "N",
            description = "ORD to put in the Request (client) or the accepting Reply (server; at most the client's "
                    + "IRD, RFC 6581 §9.1), 0..16383 (default: the tool's own)")
    Integer ord;

    @Option(names = "--private-data", paramLabel = "HEX", converter = HexConverter.class,
            description = "ULP private data of the Request (client) or the accepting Reply (server), as hex; "
                    + "Linux siw drops a frame whose PD_Length exceeds 256 (252 octets with Rev 2)")
    Octets privateData = new Octets(new byte[0]);

    @Option(names = "--peer", paramLabel = "siw|rfc", defaultValue = "siw", converter = PeerConverter.class,
            description = "what to tolerate from the peer: siw (default) accepts what Linux soft-iWARP does (FPDUs "
                    + "right behind its MPA Reply, its setup Terminate without CRC, its bit-mirrored Terminate "
                    + "control word; interop/FINDINGS.md R8, M17, F1) and nudges its accept race (M15); rfc holds "
                    + "the peer to the RFCs")
    PeerProfile peer = PeerProfile.LINUX_SIW;

    @Option(names = "--nudge", paramLabel = "MS",
            description = "client: if the server sends nothing within MS milliseconds of our first FPDU, send one "
                    + "zero-length RDMA Write, a no-op at any RFC 5041 peer that wakes a Linux siw server whose "
                    + "accept race stranded that FPDU (default: 500 with --peer siw, 0 with --peer rfc; 0 = off)")
    Integer nudgeMillis;

    /** The IRD option, or {@code fallback}. */
    public int ird(int fallback) {
        return ird == null ? fallback : ird;
    }

    /**
     * A server's Reply IRD: {@code --ird}, raised to the client's ORD (at most {@code max}) when that is larger,
     * as RFC 6581 §9.1 allows and the option says; without {@code --ird}, {@code derived}. (The verbs API answers
     * an explicit IRD as it is, so the raise is the tool's.)
     */
    public OptionalInt responderIrd(OptionalInt clientOrd, int max, OptionalInt derived) {
        if (ird == null) {
            return derived;
        }
        return OptionalInt.of(Math.max(ird, Math.min(clientOrd.orElse(0), max)));
    }

    /** The ORD option, or {@code fallback}. */
    public int ord(int fallback) {
        return ord == null ? fallback : ord;
    }

    /** The ORD option, or {@code fallback} (empty: the queue pair's). */
    public OptionalInt ord(OptionalInt fallback) {
        return ord == null ? fallback : OptionalInt.of(ord);
    }

    public byte[] privateData() {
        return privateData.bytes();
    }

    /** Usage errors for values picocli cannot check alone. */
    public void validate(CommandLine cl) {
        if (mpaRevision != 1 && mpaRevision != 2) {
            throw new CommandLine.ParameterException(cl, "--mpa-rev must be 1 or 2: " + mpaRevision);
        }
        if (!p2p.isEmpty() && mpaRevision < 2) {
            throw new CommandLine.ParameterException(cl, "--p2p needs --mpa-rev 2 (RFC 6581)");
        }
        if (p2p.size() != p2p.stream().distinct().count()) {
            throw new CommandLine.ParameterException(cl, "--p2p names a type twice: " + p2p);
        }
        for (Integer v : new Integer[] {ird, ord}) {
            if (v != null) {
                Usage.range(cl, "--ird/--ord", v, 0, 0x3FFF);
            }
        }
        int max = MpaFrame.MAX_PRIVATE_DATA_LENGTH - (mpaRevision >= 2 ? EnhancedConnectionData.LENGTH : 0);
        if (privateData.bytes().length > max) {
            throw new CommandLine.ParameterException(cl, "--private-data: " + privateData.bytes().length
                    + " octets, at most " + max + " with MPA revision " + mpaRevision + " (RFC 5044 §7.1.1)");
        }
        if (nudgeMillis != null && nudgeMillis < 0) {
            throw new CommandLine.ParameterException(cl, "--nudge must be >= 0: " + nudgeMillis);
        }
    }

    /** What to tolerate from the peer ({@code --peer}), with the first-FPDU nudge of {@code --nudge} if given. */
    public PeerProfile peerProfile() {
        return nudgeMillis == null ? peer : peer.withFirstFpduNudge(Duration.ofMillis(nudgeMillis));
    }

    /** Applies revision, peer-to-peer, private data and the peer profile to a client's connect options. */
    public ConnectOptions.Builder applyTo(ConnectOptions.Builder b) {
        RtrType[] offered = p2p.toArray(RtrType[]::new);
        return b.mpa(m -> offered.length == 0 ? m.revision(mpaRevision) : m.revision(mpaRevision).peerToPeer(offered))
                .privateData(privateData.bytes()).peerProfile(peerProfile());
    }

    /** Applies revision, the supported RTR types and the peer profile to a server's listen options. */
    public ListenOptions.Builder applyTo(ListenOptions.Builder b) {
        RtrType[] supported = p2p.toArray(RtrType[]::new);
        return b.mpa(m -> supported.length == 0 ? m.revision(mpaRevision) : m.revision(mpaRevision).rtrTypes(supported))
                .peerProfile(peerProfile());
    }

    /** {@code siw|rfc}: {@link PeerProfile#LINUX_SIW} or {@link PeerProfile#RFC_STRICT}. */
    public static final class PeerConverter implements CommandLine.ITypeConverter<PeerProfile> {
        @Override
        public PeerProfile convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "siw", "linux-siw" -> PeerProfile.LINUX_SIW;
                case "rfc", "rfc-strict" -> PeerProfile.RFC_STRICT;
                default -> throw new CommandLine.TypeConversionException("'" + value + "' is neither siw nor rfc");
            };
        }
    }

    /** {@code write|read|send} (RFC 6581 §9.2 flags C, D, B). */
    public static final class RtrConverter implements CommandLine.ITypeConverter<RtrType> {
        @Override
        public RtrType convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "write", "c" -> RtrType.WRITE;
                case "read", "d" -> RtrType.READ;
                case "send", "b" -> RtrType.SEND;
                default -> throw new CommandLine.TypeConversionException("'" + value + "' is not write, read or send");
            };
        }
    }

    /** Octets given on the command line (a single-valued option type: picocli treats arrays as repeatable). */
    public record Octets(byte[] bytes) {
        public Octets {
            bytes = bytes.clone();
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }
    }

    /** Hex octets; whitespace, ':' and a leading 0x are ignored. */
    public static final class HexConverter implements CommandLine.ITypeConverter<Octets> {
        @Override
        public Octets convert(String value) {
            String hex = value.replaceAll("[\\s:]", "");
            if (hex.startsWith("0x") || hex.startsWith("0X")) {
                hex = hex.substring(2);
            }
            try {
                return new Octets(HexFormat.of().parseHex(hex));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not an even number of hex digits");
            }
        }
    }
}
