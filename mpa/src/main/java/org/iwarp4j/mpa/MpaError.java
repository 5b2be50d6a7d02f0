package org.iwarp4j.mpa;

/**
 * The MPA error codes: Terminate Layer 2 (LLP), Error Type 0, Error Code 0x01…0x07
 * (RFC 5044 §8, RFC 6581 §8, IANA "MPA Errors" registry of RFC 6580).
 *
 * <p>Every error the MPA layer detects or asks its user to report carries one of these codes, so the
 * conversion to the Terminate control word of RFC 5040 §4.8 is mechanical:
 * {@code layer = 0x2, etype = 0x0, code = code()}.
 */
public enum MpaError {

    /** 0x01: the TCP connection was closed, terminated or lost (RFC 5044 §8). Local report only. */
    TCP_CONNECTION_LOST(0x01, "TCP connection closed, terminated or lost"),

    /** 0x02: an FPDU failed the CRC check (RFC 5044 §8, §4.4). TCP stays open; the ULP terminates. */
    CRC_ERROR(0x02, "MPA CRC error"),

    /**
     * 0x03: the CRC was valid (or CRCs are off) but a marker's FPDUPTR disagrees with the FPDU
     * located from ULPDU_Length (RFC 5044 §8, §4.3).
     */
    MARKER_MISMATCH(0x03, "MPA Marker and ULPDU Length field mismatch"),

    /**
     * 0x04: an invalid MPA Request or Reply frame (RFC 5044 §8, §7.1.2). The TCP connection is closed
     * at once; no Terminate can be sent because Full Operation was never reached.
     */
    INVALID_STARTUP_FRAME(0x04, "Invalid MPA Request Frame or MPA Response Frame"),

    /** 0x05: a local catastrophic error during enhanced connection setup (RFC 6581 §8, §9.3). */
    LOCAL_CATASTROPHIC(0x05, "Local catastrophic error"),

    /**
     * 0x06: the Initiator cannot provide an IRD at least as large as the Responder's ORD
     * (RFC 6581 §8, §9.1). Sent by the Initiator in a Terminate as its first FPDU.
     */
    INSUFFICIENT_IRD(0x06, "Insufficient IRD resources"),

    /**
     * 0x07: no RTR type offered by the Responder is usable by the Initiator (RFC 6581 §8, §9.2).
     * Sent by the Initiator in a Terminate as its first FPDU.
     */
    NO_MATCHING_RTR(0x07, "No matching RTR option");

    /** Terminate Layer field of every MPA error: 0x2 = LLP (RFC 5040 §4.8). */
    public static final int TERMINATE_LAYER = 0x2;

    /** Terminate Error Type field of every MPA error: 0x0 (RFC 5044 §8). */
    public static final int TERMINATE_ERROR_TYPE = 0x0;

    private final int code;
    private final String description;
    /** {@link #toString()}, built once: it is in every MPA error's message. */
    private String text;

    MpaError(int code, String description) {
        this.code = code;
        this.description = description;
    }

    /** The Error Code octet of the Terminate control field (0x01…0x07). */
    public int code() {
        return code;
    }

    /** The IANA registry description, e.g. {@code "MPA CRC error"}. */
    public String description() {
        return description;
    }

    /** The error with the given Error Code. */
    public static MpaError ofCode(int code) {
        for (MpaError e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        throw new IllegalArgumentException("no MPA error code 0x" + Integer.toHexString(code));
    }

    /** {@code "0x2/0x0/0x02 MPA CRC error"}: the Layer/EType/Code notation of the IANA registries (RFC 6580). */
    @Override
    public String toString() {
        if (text == null) {
            text = String.format("0x%x/0x%x/0x%02x %s", TERMINATE_LAYER, TERMINATE_ERROR_TYPE, code, description);
        }
        return text;
    }
}
