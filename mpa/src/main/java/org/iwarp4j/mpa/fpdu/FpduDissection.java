package org.iwarp4j.mpa.fpdu;

import java.util.List;

/**
 * The result of dissecting a byte stream into FPDUs.
 *
 * @param fpdus    every complete FPDU found, in order (including ones with a CRC or marker error)
 * @param consumed octets of the input covered by {@code fpdus}
 * @param error    {@code null}, or the error that stopped dissection: a ULPDU_Length above the limit
 *                 (0x02), or input that ends inside an FPDU (0x01, as a stream that ends mid-FPDU is
 *                 reported); per-FPDU errors are on the FPDUs themselves
 */
public record FpduDissection(List<DissectedFpdu> fpdus, int consumed, DissectionError error) {

    public FpduDissection {
        fpdus = List.copyOf(fpdus);
    }

    /** The first error in the stream: of an FPDU, or the one that stopped dissection. */
    public DissectionError firstError() {
        for (DissectedFpdu f : fpdus) {
            if (f.error() != null) {
                return f.error();
            }
        }
        return error;
    }
}
