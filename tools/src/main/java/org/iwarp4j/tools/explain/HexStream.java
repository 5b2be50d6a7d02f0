package org.iwarp4j.tools.explain;

/**
 * What {@code explain --hex} was asked to decode: one direction's octets and how they start.
 *
 * @param bytes        the octets
 * @param startsAtFpdu {@code --fpdu}: the octets start at an FPDU, not at an MPA Request/Reply
 * @param crc          {@code --crc}/{@code --no-crc}, or {@code null} when not given
 * @param markers      {@code --markers}
 * @param streamOffset {@code --stream-offset}: offset of {@code bytes[0]} from SeqStart (0..2^32-1, 4-aligned)
 */
public record HexStream(byte[] bytes, boolean startsAtFpdu, Boolean crc, boolean markers, long streamOffset) {

    public HexStream {
        bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }
}
