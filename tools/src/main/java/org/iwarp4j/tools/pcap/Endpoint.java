package org.iwarp4j.tools.pcap;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * One end of a TCP connection: an IPv4 or IPv6 address and a port.
 *
 * @param address 4 or 16 octets, network order
 * @param port    0..65535
 */
public record Endpoint(byte[] address, int port) implements Comparable<Endpoint> {

    public Endpoint {
        if (address.length != 4 && address.length != 16) {
            throw new IllegalArgumentException("an IP address has 4 or 16 octets, not " + address.length);
        }
        address = address.clone();
    }

    @Override
    public byte[] address() {
        return address.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Endpoint e && e.port == port && Arrays.equals(e.address, address);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(address) * 31 + port;
    }

    @Override
    public int compareTo(Endpoint o) {
        int c = Arrays.compareUnsigned(address, o.address);
        return c != 0 ? c : Integer.compare(port, o.port);
    }

    /** {@code 127.0.0.1:40001} or {@code [2001:db8::1]:40001}. */
    @Override
    public String toString() {
        return address.length == 4 ? addressText() + ":" + port : "[" + addressText() + "]:" + port;
    }

    /** The address in dotted-quad or RFC 5952 text form (longest run of zero groups as {@code ::}). */
    public String addressText() {
        if (address.length == 4) {
            return (address[0] & 0xff) + "." + (address[1] & 0xff) + "." + (address[2] & 0xff) + "."
                    + (address[3] & 0xff);
        }
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = (address[2 * i] & 0xff) << 8 | (address[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 1; // RFC 5952 §4.2.2: a single zero group is not shortened
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                s.append("::");
                i += bestLength - 1;
                continue;
            }
            if (s.length() > 0 && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            s.append(HexFormat.of().toHexDigits((short) groups[i]).replaceFirst("^0{1,3}", ""));
        }
        return s.toString();
    }
}
