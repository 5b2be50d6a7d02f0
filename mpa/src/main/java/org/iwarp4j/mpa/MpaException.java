package org.iwarp4j.mpa;

/**
 * The one exception of the MPA layer: a protocol error with its {@link MpaError} code (Terminate
 * Layer 2 / EType 0 / Code), a message that says what was wrong, and, where known, the stream offset
 * at which the problem was found.
 *
 * <p><b>Unchecked</b> on purpose: it is raised deep inside pure core code (frame parser, FPDU
 * reader) and always caught in exactly one place, the Netty adapter, which turns it into an event
 * ({@code exceptionCaught} or a startup-failed event). It travels through Netty callbacks, promises
 * and lambdas, where checked exceptions do not fit, just like Netty's own {@code DecoderException}.
 * Tools that only want a verdict use the dissector, which returns errors as data and never throws.
 *
 * <p>Stream offsets: for errors found in Full Operation, {@link #streamOffset()} is the offset of
 * the first octet of the offending FPDU relative to SeqStart of that half connection (RFC 5044 §4.3),
 * modulo 2^32 as an unsigned value; for startup-frame errors it is the octet offset within the
 * MPA Request/Reply. {@link #NO_OFFSET} when not applicable.
 */
public final class MpaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** {@link #streamOffset()} value when no offset applies. */
    public static final long NO_OFFSET = -1;

    private final MpaError error;
    private final long streamOffset;
    private final UnverifiedFpdu unverifiedFpdu;

    /**
     * The FPDU whose CRC did not match (RFC 5044 §4.4), as received: its ULPDU and the CRC field it carried.
     * Never delivered as data; the layer above may read it to explain the failure (e.g. Linux siw sends its
     * RFC 6581 setup Terminate with a zero CRC field on a connection that negotiated CRC, interop/FINDINGS.md
     * M17).
     *
     * @param ulpdu    the ULPDU octets (a copy)
     * @param crcField the CRC field as received (LSB first on the wire, as an unsigned value)
     */
    public record UnverifiedFpdu(byte[] ulpdu, long crcField) {
        public UnverifiedFpdu {
            ulpdu = ulpdu.clone();
        }

        @Override
        public byte[] ulpdu() {
            return ulpdu.clone();
        }
    }

    public MpaException(MpaError error, String message) {
        this(error, message, NO_OFFSET, (Throwable) null);
    }

    public MpaException(MpaError error, String message, long streamOffset) {
        this(error, message, streamOffset, (Throwable) null);
    }

    public MpaException(MpaError error, String message, long streamOffset, Throwable cause) {
        this(error, message, streamOffset, cause, null);
    }

    /** A CRC error with the FPDU that failed the check (see {@link UnverifiedFpdu}). */
    public MpaException(MpaError error, String message, long streamOffset, UnverifiedFpdu unverifiedFpdu) {
        this(error, message, streamOffset, null, unverifiedFpdu);
    }

    private MpaException(MpaError error, String message, long streamOffset, Throwable cause,
                         UnverifiedFpdu unverifiedFpdu) {
        super(message, cause);
        if (error == null) {
            throw new NullPointerException("error");
        }
        this.error = error;
        this.streamOffset = streamOffset;
        this.unverifiedFpdu = unverifiedFpdu;
    }

    /** For a CRC error found by the FPDU reader: the FPDU that failed the check; otherwise {@code null}. */
    public UnverifiedFpdu unverifiedFpdu() {
        return unverifiedFpdu;
    }

    /** The MPA error code. */
    public MpaError error() {
        return error;
    }

    /** Where the error was found ({@link #NO_OFFSET} if unknown); see the class comment. */
    public long streamOffset() {
        return streamOffset;
    }

    /** Terminate Layer field: always 0x2 (LLP). */
    public int terminateLayer() {
        return MpaError.TERMINATE_LAYER;
    }

    /** Terminate Error Type field: always 0x0. */
    public int terminateErrorType() {
        return MpaError.TERMINATE_ERROR_TYPE;
    }

    /** Terminate Error Code field (0x01…0x07). */
    public int terminateErrorCode() {
        return error.code();
    }

    /**
     * What was wrong, in words, without the {@code "0x2/0x0/0x04 … at stream offset N: "} prefix that
     * {@link #getMessage()} adds (for tools that print the code and offset themselves).
     */
    public String detail() {
        return super.getMessage();
    }

    @Override
    public String getMessage() {
        String m = super.getMessage();
        return streamOffset == NO_OFFSET
                ? error + ": " + m
                : error + " at stream offset " + streamOffset + ": " + m;
    }
}
