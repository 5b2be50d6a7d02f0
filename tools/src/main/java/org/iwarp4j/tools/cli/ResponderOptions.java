package org.iwarp4j.tools.cli;

import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.verbs.cm.ListenOptions;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * A server tool's answer to the MPA Request besides accepting: reject it, with or without ULP private data
 * in the rejecting Reply (RFC 5044 §7.1.2 rule 2), or reject it only when the Initiator's IRD is below the
 * ORD this server needs (RFC 6581 §9.1: the Reply then carries that ORD).
 */
public final class ResponderOptions {

    @Option(names = "--reject", description = "reject the connection request (MPA Reply with R=1), then end")
    boolean reject;

    @Option(names = "--reject-data", paramLabel = "HEX", converter = ConnectionOptions.HexConverter.class,
            description = "ULP private data of the rejecting Reply (implies --reject)")
    ConnectionOptions.Octets rejectData;

    @Option(names = "--required-ord", paramLabel = "N",
            description = "reject a Request whose IRD is below N, with N as the Reply's ORD (RFC 6581 §9.1); "
                    + "0 = never (default)")
    int requiredOrd;

    /** Whether every request is rejected. */
    public boolean reject() {
        return reject || rejectData != null;
    }

    /** Private data of the rejecting Reply (empty if none). */
    public byte[] rejectData() {
        return rejectData == null ? new byte[0] : rejectData.bytes();
    }

    public int requiredOrd() {
        return requiredOrd;
    }

    public void validate(CommandLine cl) {
        Usage.range(cl, "--required-ord", requiredOrd, 0, 0x3FFF);
        // Whatever the revision: room for the enhanced connection data of a Rev 2 Reply.
        int max = MpaFrame.MAX_PRIVATE_DATA_LENGTH - EnhancedConnectionData.LENGTH;
        if (rejectData != null && rejectData.bytes().length > max) {
            throw new CommandLine.ParameterException(cl, "--reject-data: at most " + max + " octets (RFC 5044 §7.1.1)");
        }
    }

    public ListenOptions.Builder applyTo(ListenOptions.Builder b) {
        return b.requiredOrd(requiredOrd);
    }
}
