package org.iwarp4j.tools.cli;

import java.nio.file.Path;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ListenOptions;
import picocli.CommandLine.Option;

/**
 * The MPA settings every connecting tool offers ({@code --crc on|off}, {@code --markers}) and the capture
 * option ({@code --pcap FILE}), applied to the MPA Request (client) or Reply (server) the tool sends.
 * CRCs are on when either side asks (RFC 5044 §4.4); markers are inserted by the side the other asked
 * (RFC 5044 §7.1.1: M in a Request asks the Responder, M in a Reply asks the Initiator).
 */
public final class WireOptions {

    @Option(names = "--crc", paramLabel = "on|off", arity = "1", converter = OnOffConverter.class, defaultValue = "on",
            description = "ask for MPA CRC32c (RFC 5044 §4.4; default on). CRCs are on if either side asks; "
                    + "Linux siw accepts both")
    boolean crc = true;

    @Option(names = "--markers",
            description =
                    "ask the peer to insert MPA markers every 512 octets (RFC 5044 §4.3). Linux siw refuses markers")
    boolean markers;

    @Option(names = "--pcap", paramLabel = "FILE",
            description = "write the connection's TCP traffic as a pcap capture for Wireshark/tshark "
                    + "(decode with: tshark -r FILE --disable-protocol rpcordma --disable-protocol smb_direct)")
    Path pcap;

    public boolean crc() {
        return crc;
    }

    public boolean markers() {
        return markers;
    }

    public Path pcap() {
        return pcap;
    }

    /** The same settings without a capture (the second end of a loopback run: one capture is enough). */
    public WireOptions withoutPcap() {
        WireOptions w = new WireOptions();
        w.crc = crc;
        w.markers = markers;
        return w;
    }

    /** Connect options with these settings (and the capture), MPA revision 2 like siw. */
    public ConnectOptions.Builder connect() {
        return ConnectOptions.builder().mpa(m -> m.revision(2).crc(crc).markers(markers)).pcapFile(pcap);
    }

    /** Listen options with these settings (and the capture). */
    public ListenOptions.Builder listen() {
        return ListenOptions.builder().mpa(m -> m.revision(2).crc(crc).markers(markers)).pcapFile(pcap);
    }

    /** E.g. {@code CRC on, no markers}. */
    public String describe() {
        return "CRC " + (crc ? "asked" : "not asked") + ", " + (markers ? "markers asked" : "no markers asked");
    }
}
