package org.iwarp4j.tools.rping;

import java.util.Locale;
import picocli.CommandLine;

/**
 * The protocol errors {@code iwarp rping --inject} provokes, to watch both stacks report the Terminate
 * (RFC 5040 §4.8) and tear down. Plain names: this side commits the error and the peer detects it;
 * {@code peer-} names: this side makes the peer commit it (by what it advertises or fails to post), and
 * this side detects it. Expected Terminates: the codes of RFC 5040 §4.8 and RFC 5041 §7.2 for ours,
 * interop/FINDINGS.md F2 for Linux siw.
 */
enum RpingInjection {

    /** Server: the RDMA Write goes to the sink STag with its key octet flipped (invalid STag, 0x1/0x1/0x00). */
    BAD_STAG("bad-stag", Role.SERVER),
    /** Server: the RDMA Read asks for the advertised length 8 octets past the advertised address (0x0/0x1/0x01). */
    READ_BEYOND("read-beyond", Role.SERVER),
    /**
     * Either role: the first Send goes out twice in one post (one TCP segment): the peer has no receive for the copy
     * (0x1/0x2/0x02).
     */
    NO_RECV("no-recv", Role.EITHER),
    /**
     * Client: the sink advert carries its STag with the key octet flipped, so the peer's RDMA Write hits an invalid
     * STag.
     */
    PEER_BAD_STAG("peer-bad-stag", Role.CLIENT),
    /** Client: the source advert starts 8 octets into the buffer, so the peer's RDMA Read runs past the region. */
    PEER_READ_BEYOND("peer-read-beyond", Role.CLIENT),
    /** Either role: the receive consumed first is not re-posted, so the peer's next Send finds no receive. */
    PEER_NO_RECV("peer-no-recv", Role.EITHER);

    enum Role { SERVER, CLIENT, EITHER }

    /** What {@link #BAD_STAG} and {@link #PEER_BAD_STAG} flip: the key octet of the STag (RFC 5040 §2.1). */
    static final int STAG_KEY_FLIP = 0xFF;
    /** How far {@link #READ_BEYOND} and {@link #PEER_READ_BEYOND} shift the region's start. */
    static final int BEYOND_OCTETS = 8;

    final String cliName;
    final Role role;

    RpingInjection(String cliName, Role role) {
        this.cliName = cliName;
        this.role = role;
    }

    boolean allowedFor(boolean server) {
        return role == Role.EITHER || (role == Role.SERVER) == server;
    }

    /** picocli: the names above. */
    static final class Converter implements CommandLine.ITypeConverter<RpingInjection> {
        @Override
        public RpingInjection convert(String value) {
            String v = value.toLowerCase(Locale.ROOT);
            for (RpingInjection i : values()) {
                if (i.cliName.equals(v)) {
                    return i;
                }
            }
            throw new CommandLine.TypeConversionException("'" + value + "' is not one of bad-stag, read-beyond, "
                    + "no-recv, peer-bad-stag, peer-read-beyond, peer-no-recv");
        }
    }
}
