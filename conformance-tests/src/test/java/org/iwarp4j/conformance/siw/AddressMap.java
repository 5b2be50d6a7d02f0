package org.iwarp4j.conformance.siw;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Replaying a recorded conversation against the real stack: everything is compared octet for octet except
 * the fields that name memory of the side the stack now plays (STags and Tagged Offsets / virtual
 * addresses), because the stack registers its own. The first time the stack's octets differ from the
 * recording in such a field, the pair (recorded value → the stack's value) is learnt; it must then hold
 * everywhere, and siw's recorded segments that copy those values (a Read Response's STag/TO, a Write to
 * an advertised buffer, a Read Request's source) get the stack's values substituted.
 *
 * <p>Address fields (offsets in the ULPDU): tagged messages STag [2,6) TO [6,14); Read Request sink STag
 * [18,22), sink TO [22,30), source STag [34,38), source TO [38,46); a 16-octet Send payload (an rping
 * advert {@code u64 VA | u32 STag | u32 len}) VA [18,26), STag [26,30).
 */
final class AddressMap {

    private final Map<Long, Long> values = new HashMap<>();

    private static List<int[]> fields(byte[] u) {
        List<int[]> f = new ArrayList<>();
        boolean tagged = (u[0] & 0x80) != 0;
        int opcode = u[1] & 0x0F;
        if (tagged) {
            f.add(new int[] {2, 4});
            f.add(new int[] {6, 8});
        } else if (opcode == 0x1 && u.length >= 46) {
            f.add(new int[] {18, 4});
            f.add(new int[] {22, 8});
            f.add(new int[] {34, 4});
            f.add(new int[] {38, 8});
        } else if (opcode == 0x3 && u.length == 18 + 16) {
            f.add(new int[] {18, 8});
            f.add(new int[] {26, 4});
        }
        return f;
    }

    private static long read(byte[] u, int[] field) {
        ByteBuffer b = ByteBuffer.wrap(u);
        return field[1] == 4 ? Integer.toUnsignedLong(b.getInt(field[0])) : b.getLong(field[0]);
    }

    private static void write(byte[] u, int[] field, long v) {
        ByteBuffer b = ByteBuffer.wrap(u);
        if (field[1] == 4) {
            b.putInt(field[0], (int) v);
        } else {
            b.putLong(field[0], v);
        }
    }

    /** The recorded octets the peer side sent, with every learnt address of the stack substituted. */
    byte[] substitute(byte[] recorded) {
        byte[] u = recorded.clone();
        for (int[] field : fields(u)) {
            Long mine = values.get(key(field, read(u, field)));
            if (mine != null) {
                write(u, field, mine);
            }
        }
        return u;
    }

    /**
     * Checks the stack's ULPDU against the recorded one: equal except in address fields, where differences
     * are learnt (consistently). Returns a description of what differs wrongly, or {@code null}.
     */
    String check(byte[] recorded, byte[] actual) {
        if (recorded.length != actual.length) {
            return "length " + actual.length + " instead of " + recorded.length + ": "
                    + HexFormat.of().formatHex(actual);
        }
        byte[] masked = recorded.clone();
        for (int[] field : fields(recorded)) {
            long rec = read(recorded, field);
            long act = read(actual, field);
            if (rec != act) {
                Long known = values.putIfAbsent(key(field, rec), act);
                if (known != null && known != act) {
                    return String.format("address 0x%x was 0x%x before, now 0x%x", rec, known, act);
                }
            }
            write(masked, field, act);
        }
        return Arrays.equals(masked, actual) ? null
                : "differs beyond addresses: expected " + HexFormat.of().formatHex(masked) + " got "
                + HexFormat.of().formatHex(actual);
    }

    private static long key(int[] field, long value) {
        return field[1] == 4 ? value | (1L << 62) : value;
    }
}
