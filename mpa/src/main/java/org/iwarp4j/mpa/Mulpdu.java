package org.iwarp4j.mpa;

/**
 * Maximum ULPDU size (MULPDU) that MPA lets its user hand down, computed from the effective MSS
 * (RFC 5044 §4.5, §3).
 *
 * <pre>
 * markers on : MULPDU = EMSS - (6 + 4 * ceil(EMSS / 512) + EMSS mod 4)
 * markers off: MULPDU = EMSS - (6 + EMSS mod 4)
 * </pre>
 *
 * and the result reported to DDP is clamped to {@value #MIN} … {@value #MAX} (RFC 5044 §3 and §4.5:
 * never less than 128 even if EMSS is smaller, never more than 64768).
 */
public final class Mulpdu {

    /** RFC 5044 §4.5: MULPDU is never reported below 128 octets. */
    public static final int MIN = 128;
    /** RFC 5044 §3: no ULPDU larger than 64768 octets. */
    public static final int MAX = 64768;
    /** EMSS assumed when the transport cannot tell (an Ethernet MTU of 1500 without TCP options). */
    public static final int DEFAULT_EMSS = 1460;

    private Mulpdu() {}

    /**
     * The raw §4.5 formula, without the clamp (may be below 128 or above 64768; the golden table
     * lists these raw values).
     *
     * @param emss    effective MSS, &gt; 0
     * @param markers whether the sender inserts markers into this half connection
     */
    public static int formula(int emss, boolean markers) {
        if (emss <= 0) {
            throw new IllegalArgumentException("EMSS must be positive: " + emss);
        }
        int overhead = 6 + (emss % 4);
        if (markers) {
            overhead += 4 * ((emss + 511) / 512);
        }
        return emss - overhead;
    }

    /** The MULPDU MPA reports: {@link #formula} clamped to {@value #MIN} … {@value #MAX}. */
    public static int of(int emss, boolean markers) {
        return Math.max(MIN, Math.min(MAX, formula(emss, markers)));
    }
}
