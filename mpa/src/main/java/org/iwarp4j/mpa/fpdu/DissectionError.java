package org.iwarp4j.mpa.fpdu;

import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;

/**
 * An error found by a dissector: the MPA error code, where it was found, and a human-readable message.
 *
 * @param error        the MPA error code
 * @param inputOffset  octet offset in the dissected input
 * @param streamOffset stream offset from SeqStart (mod 2^32, unsigned) of the FPDU concerned, or
 *                     {@link MpaException#NO_OFFSET} for startup frames
 * @param message      what is wrong
 */
public record DissectionError(MpaError error, int inputOffset, long streamOffset, String message) {

    @Override
    public String toString() {
        return error + " at input offset " + inputOffset + ": " + message;
    }
}
