package org.iwarp4j.tools.pcap;

import java.util.Optional;

/** The link-layer header types this reader understands (tcpdump.org "LINKTYPE_" values). */
public enum LinkType {
    /** BSD loopback: a 4-octet address family in the capturing host's byte order. */
    NULL(0),
    ETHERNET(1),
    /** Raw IP, version taken from the first nibble. */
    RAW(101),
    /** OpenBSD loopback: like {@link #NULL} but the family is big-endian. */
    LOOP(108),
    /** Linux "cooked" capture v1 (16-octet header, protocol type at octet 14). */
    LINUX_SLL(113),
    IPV4(228),
    IPV6(229),
    /** Linux "cooked" capture v2 (20-octet header, protocol type at octet 0). */
    LINUX_SLL2(276);

    private final int value;

    LinkType(int value) {
        this.value = value;
    }

    public int value() {
        return value;
    }

    public static Optional<LinkType> of(int value) {
        for (LinkType t : values()) {
            if (t.value == value) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
