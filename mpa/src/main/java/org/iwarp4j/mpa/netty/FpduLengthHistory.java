package org.iwarp4j.mpa.netty;

/**
 * The wire lengths of the last {@value #WINDOW} FPDUs a connection received, and the repeating pattern they form,
 * if any: what {@link FpduReadSizes} predicts the next FPDUs' lengths from.
 *
 * <p>A stream of equal messages repeats its FPDUs' lengths with every message. A 64 KiB Write over loopback (MULPDU
 * 32,734) is two FPDUs of 32,740 octets and one of 116, over and over, so the length of the last FPDU alone
 * mispredicts every third one; the smallest period that the whole window repeats with (3 there) predicts them all.
 * A window without a period, or with a longer one (a 4 MiB Write over loopback is 129 FPDUs), predicts nothing.
 * Not thread-safe: the channel's event loop only.
 */
final class FpduLengthHistory {

    /** FPDUs remembered; periods up to half of it are found (a 2 MiB Write over loopback is 65 FPDUs). */
    static final int WINDOW = 128;

    private final int[] ring = new int[WINDOW];
    private long count;
    private int longOnes;

    /** Remembers the wire length of the FPDU just received. */
    void add(int wireLength) {
        int i = (int) (count & (WINDOW - 1));
        if (count >= WINDOW && ring[i] >= FpduReadSizes.ALIGN_FROM) {
            longOnes--;
        }
        ring[i] = wireLength;
        if (wireLength >= FpduReadSizes.ALIGN_FROM) {
            longOnes++;
        }
        count++;
    }

    /** Lengths remembered (at most {@link #WINDOW}). */
    int size() {
        return (int) Math.min(count, WINDOW);
    }

    /** Whether an FPDU of {@link FpduReadSizes#ALIGN_FROM} octets or more is among those remembered. */
    boolean anyLong() {
        return longOnes > 0;
    }

    /** The {@code back}-th last length (1: the last one); {@code 1 <= back <= size()}. */
    int last(int back) {
        return ring[(int) ((count - back) & (WINDOW - 1))];
    }

    /**
     * The smallest period {@code p} with which every remembered length repeats (each equals the one {@code p}
     * before it) over at least two whole periods; 0 if there is none.
     */
    int period() {
        int n = size();
        for (int p = 1; 2 * p <= n; p++) {
            boolean repeats = true;
            for (int back = 1; back + p <= n; back++) {
                if (last(back) != last(back + p)) {
                    repeats = false;
                    break;
                }
            }
            if (repeats) {
                return p;
            }
        }
        return 0;
    }

    /**
     * The length of the {@code ahead}-th FPDU still to come (0: the next one) if the stream goes on repeating with
     * {@code period} ({@link #period()}, not 0).
     */
    int predicted(int period, int ahead) {
        return last(period - ahead % period);
    }
}
