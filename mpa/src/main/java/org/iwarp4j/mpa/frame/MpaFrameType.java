package org.iwarp4j.mpa.frame;

import java.nio.charset.StandardCharsets;

/**
 * The two MPA startup frames and their 16-octet keys (RFC 5044 §7.1.1). The keys differ only in
 * octet 9 (0-based; the tenth octet): {@code 'q'} (0x71) for the Request, {@code 'p'} (0x70) for
 * the Reply.
 */
public enum MpaFrameType {
    /** Sent by the Initiator: key {@code "MPA ID Req Frame"}. */
    REQUEST("MPA ID Req Frame"),
    /** Sent by the Responder: key {@code "MPA ID Rep Frame"}. */
    REPLY("MPA ID Rep Frame");

    /** Length of the key field in octets. */
    public static final int KEY_LENGTH = 16;
    /** The only key octet that differs between Request and Reply. */
    public static final int DISTINGUISHING_KEY_OCTET = 9;

    private final String keyAscii;
    private final byte[] key;

    MpaFrameType(String keyAscii) {
        this.keyAscii = keyAscii;
        this.key = keyAscii.getBytes(StandardCharsets.US_ASCII);
    }

    /** The key as ASCII text. */
    public String keyAscii() {
        return keyAscii;
    }

    /** Octet {@code i} (0…15) of the key. */
    public byte keyOctet(int i) {
        return key[i];
    }

    /** A copy of the 16 key octets. */
    public byte[] key() {
        return key.clone();
    }

    /** The other frame type (Request ↔ Reply). */
    public MpaFrameType other() {
        return this == REQUEST ? REPLY : REQUEST;
    }
}
