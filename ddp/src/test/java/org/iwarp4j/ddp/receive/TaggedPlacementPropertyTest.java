package org.iwarp4j.ddp.receive;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.Bytes;
import org.iwarp4j.ddp.DdpError;
import org.iwarp4j.ddp.RecordingListener;
import org.iwarp4j.ddp.SegmentBytes;
import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

/**
 * RFC 5041 §7.1 tagged checks as a property: a random tagged segment against random regions (STag, base
 * TO anywhere in the 64-bit space including across 2^64, length, access rights, protection domain, stream
 * association, invalidated) is either placed exactly where a simple model says, or rejected with the code
 * the model predicts — and then no octet of any region, nor of the guard octets around them, changed.
 */
class TaggedPlacementPropertyTest {

    private static final long PD = 1;
    private static final Object STREAM = new Object();
    private static final Object OTHER_STREAM = new Object();
    private static final int GUARD = 64;
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    record RegionSpec(int length, long base, int association, boolean valid, int accessBits) {
        long pd() {
            return association % 10 == 9 ? PD + 1 : PD;
        }

        Object stream() {
            int s = association / 10;
            return s < 7 ? null : s < 9 ? STREAM : OTHER_STREAM;
        }

        Set<TaggedBufferAccess> access() {
            EnumSet<TaggedBufferAccess> set = EnumSet.noneOf(TaggedBufferAccess.class);
            for (TaggedBufferAccess a : TaggedBufferAccess.values()) {
                if ((accessBits & (1 << a.ordinal())) != 0) {
                    set.add(a);
                }
            }
            return set;
        }
    }

    record AccessSpec(int region, long toDelta, boolean absoluteTo, int length, boolean readResponse) {}

    private static Gen<RegionSpec> regions() {
        // Bases anywhere, near 0, and just below 2^64 so that regions end at or straddle 2^64 (TO wrap).
        Gen<Long> bases = longs().all().mix(longs().between(-4096, 0), 30).mix(longs().between(0, 8192), 30)
                .mix(longs().between(-64, 0), 20);
        // Access rights: mostly the ones a placement needs, sometimes none or others.
        Gen<Integer> access = integers().between(0, 15).mix(integers().between(3, 3), 50);
        return integers().between(1, 2048).zip(bases, integers().between(0, 99), integers().between(0, 9), access,
                (len, base, assoc, valid, bits) -> new RegionSpec(len, base, assoc, valid < 8, bits));
    }

    private static Gen<AccessSpec> accesses() {
        Gen<Long> deltas = longs().between(-16, 2100).mix(longs().all(), 10).mix(longs().between(0, 64), 30);
        Gen<Integer> lengths = integers().between(0, 2100).mix(integers().between(0, 2), 10)
                .mix(integers().between(1, 64), 30);
        return integers().between(0, 3).zip(deltas, booleans().all().mix(booleans().all().map(b -> false), 80),
                lengths, booleans().all(),
                (region, delta, absolute, length, rr) -> new AccessSpec(region, delta, absolute, length, rr));
    }

    /** The RFC's rules, written again from docs/protocol/ddp.md §6/§7 with exact arithmetic: the error or null. */
    private static DdpError model(RegionSpec r, long to, int length, TaggedBufferAccess required) {
        // The wrap needs no state and is decided first (RFC 5041 §7.1 gives no order; DdpReceiver's choice).
        if (length > 0 && unsigned(to).add(BigInteger.valueOf(length)).compareTo(TWO_64) >= 0) {
            return DdpError.TO_WRAP;
        }
        if (r == null) {
            return DdpError.INVALID_STAG;
        }
        if (!r.valid()) {
            return DdpError.INVALID_STAG;
        }
        if (r.pd() != PD || (r.stream() != null && r.stream() != STREAM)) {
            return DdpError.STAG_NOT_ASSOCIATED;
        }
        if (!r.access().contains(required)) {
            return DdpError.INVALID_STAG;
        }
        BigInteger offset = unsigned(to).subtract(unsigned(r.base())).mod(TWO_64);
        if (offset.add(BigInteger.valueOf(length)).compareTo(BigInteger.valueOf(r.length())) > 0) {
            return DdpError.BASE_OR_BOUNDS_VIOLATION;
        }
        return null;
    }

    private static BigInteger unsigned(long v) {
        return new BigInteger(Long.toUnsignedString(v));
    }

    private final Map<String, Integer> outcomes = new HashMap<>();

    @Test
    void randomTaggedSegmentsArePlacedExactlyOrRejectedWithMemoryUntouched() {
        qt().withExamples(3000).forAll(lists().of(regions()).ofSizeBetween(1, 3), accesses(), integers().all())
                .checkAssert(this::check);
        // The generators reach every outcome, so the property is not vacuous.
        assertThat(outcomes.keySet()).contains("placed", "zero-length", DdpError.INVALID_STAG.name(),
                DdpError.STAG_NOT_ASSOCIATED.name(), DdpError.BASE_OR_BOUNDS_VIOLATION.name(), DdpError.TO_WRAP.name());
    }

    private void check(List<RegionSpec> specs, AccessSpec access, int stagSeed) {
        int arenaLength = GUARD;
        List<Integer> offsets = new ArrayList<>();
        for (RegionSpec s : specs) {
            offsets.add(arenaLength);
            arenaLength += s.length() + GUARD;
        }
        ByteBuf arena = ByteBufAllocator.DEFAULT.directBuffer(arenaLength, arenaLength);
        try {
            byte[] before = Bytes.pattern(arenaLength, stagSeed);
            arena.writeBytes(before);
            Map<Integer, ByteBufTaggedBuffer> registry = new HashMap<>();
            Map<Integer, RegionSpec> specByStag = new HashMap<>();
            for (int i = 0; i < specs.size(); i++) {
                RegionSpec s = specs.get(i);
                int stag = (stagSeed & ~3) | i; // distinct per region; suffix 3 is never registered
                ByteBufTaggedBuffer region = new ByteBufTaggedBuffer(stag, s.base(),
                        arena.slice(offsets.get(i), s.length()), s.access(), s.pd(), s.stream());
                if (!s.valid()) {
                    region.invalidate();
                }
                registry.put(stag, region);
                specByStag.put(stag, s);
            }
            int index = Math.min(access.region(), specs.size());
            int stag = (stagSeed & ~3) | (index == specs.size() ? 3 : index);
            RegionSpec target = specByStag.get(stag);
            long base = target == null ? 0 : target.base();
            long to = access.absoluteTo() ? access.toDelta() * 0x9E3779B97F4A7C15L : base + access.toDelta();
            byte[] payload = Bytes.pattern(access.length(), stagSeed >>> 8);

            RecordingListener listener = new RecordingListener();
            listener.taggedAdmission =
                    access.readResponse() ? TaggedAdmission.LOCAL_WRITE : TaggedAdmission.REMOTE_WRITE;
            DdpReceiver receiver = new DdpReceiver(registry::get, PD, STREAM, 3, listener);
            receiver.receive(Bytes.pooled(SegmentBytes.tagged(0xC1,
                    access.readResponse() ? 0x42 : 0x40, stag, to, payload)));

            // RFC 5041 §5.2: a zero-length tagged segment is never checked and places nothing.
            DdpError expected = access.length() == 0 ? null
                    : model(target, to, access.length(), listener.taggedAdmission.requiredAccess());
            outcomes.merge(expected != null ? expected.name() : access.length() == 0 ? "zero-length" : "placed", 1,
                    Integer::sum);
            byte[] after = Bytes.contents(arena);
            if (expected == null) {
                assertThat(listener.rejected).isEmpty();
                byte[] wanted = before.clone();
                if (access.length() > 0) {
                    int at = offsets.get(index) + (int) (to - base);
                    System.arraycopy(payload, 0, wanted, at, payload.length);
                }
                assertThat(after).isEqualTo(wanted);
                assertThat(listener.taggedDelivered).hasSize(1);
            } else {
                assertThat(listener.rejected).extracting(e -> e.error()).containsExactly(expected);
                assertThat(after).isEqualTo(before);
                assertThat(listener.taggedDelivered).isEmpty();
            }
        } finally {
            arena.release();
        }
    }
}
