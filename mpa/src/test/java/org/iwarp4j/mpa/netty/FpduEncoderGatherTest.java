package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.mpa.TestBuffers;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Gathering small FPDUs (sent with a void promise) into one buffer: the octets on the wire are exactly those of
 * the FPDUs one by one, in order, also around an FPDU too large to gather and one sent with a promise of its own;
 * a marker written after them completes only behind them; nothing leaks.
 */
class FpduEncoderGatherTest {

    private static final int[] SIZES = {64, 1, 300, FpduEncoder.GATHER_LIMIT + 1000, 64, 0, 480, 64};

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void gatheredFpdusAreTheSameOctetsInTheSameOrder(boolean markers) {
        byte[] expected = reference(markers);
        EmbeddedChannel ch = new EmbeddedChannel();
        FpduEncoder encoder = encoderOn(ch, markers);
        Random r = new Random(3);
        List<ChannelPromise> own = new ArrayList<>();
        for (int i = 0; i < SIZES.length; i++) {
            ChannelPromise p = i == 6 ? ch.newPromise() : ch.voidPromise();
            if (i == 6) {
                own.add(p);
            }
            encoder.send(ulpdu(r, SIZES[i]), null, p);
        }
        ChannelPromise marker = ch.newPromise();
        encoder.writeMarker(marker);
        assertThat(marker.isDone()).as("not flushed yet").isFalse();
        ch.flush();
        assertThat(marker.isSuccess()).isTrue();
        assertThat(own.get(0).isSuccess()).isTrue();
        List<ByteBuf> writes = new ArrayList<>();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            writes.add(b);
        }
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (ByteBuf w : writes) {
            wire.writeBytes(ByteBufUtil.getBytes(w));
            w.release();
        }
        assertThat(wire.toByteArray()).isEqualTo(expected);
        // 64+1+300 gathered with the next FPDU's length field | its ULPDU alone (in ranges between markers) | its
        // PAD and CRC, 64+0 and the next length field gathered | 480 alone | its CRC, with its promise | 64, marker
        assertThat(writes).hasSize(expectedWrites(markers, 6));
        assertThat(derivedClass(writes.get(writes.size() - 1))).as("the marker's write: the gathering buffer itself")
                .doesNotContain("Sliced").doesNotContain("Duplicated");
        assertThat(ch.finish()).isFalse();
    }

    /** The class of {@code b} under the leak detector's wrappers. */
    private static String derivedClass(ByteBuf b) {
        while (b.getClass().getSimpleName().contains("LeakAware") && b.unwrap() != null) {
            b = b.unwrap();
        }
        return b.getClass().getName();
    }

    /**
     * A stream of FPDUs too long to gather, each a header with room for the framing and a payload of its own (as DDP
     * sends them): the framing between two payloads (a CRC, the next length field and header) lands in one slice
     * of one gathering buffer, the trailer written there directly; the octets are those of the FPDUs one by one,
     * across a flush and on a buffer that fills up.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void largeFpdusCostTwoWritesEachWithTheSameOctets(boolean markers) {
        int fpdus = 600; // 600 trailers and headers overflow one gathering buffer
        int payload = 8192; // above GATHER_LIMIT: not gathered itself
        int headerLength = 18;
        EmbeddedChannel ch = new EmbeddedChannel();
        FpduEncoder encoder = encoderOn(ch, markers);
        FpduWriter reference = new FpduWriter(true, markers, 65535, 0);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        Random r = new Random(5);
        int writes = 0;
        for (int i = 0; i < fpdus; i++) {
            sendRandomFpdu(encoder, ch, reference, expected, r, headerLength, payload);
            if (i == fpdus / 3) {
                ch.flush(); // the gathering buffer is let go at a flush and a new one taken after it
            }
            for (ByteBuf b; (b = ch.readOutbound()) != null; writes++) {
                wire.writeBytes(ByteBufUtil.getBytes(b));
                b.release();
            }
        }
        ch.flush();
        for (ByteBuf b; (b = ch.readOutbound()) != null; writes++) {
            wire.writeBytes(ByteBufUtil.getBytes(b));
            b.release();
        }
        assertThat(wire.toByteArray()).isEqualTo(expected.toByteArray());
        if (!markers) {
            // per FPDU its payload and the framing before it; the last trailer at the end; one more at the flush
            assertThat(writes).isEqualTo(2 * fpdus + 2);
        }
        assertThat(ch.finish()).isFalse(); // PARANOID leak detection fails the run on a buffer not released
    }

    /**
     * An FPDU that carries 4 KiB of payload under a tagged or untagged DDP header (14 or 18 octets) is gathered, with
     * markers too: three of them share one write, where each cost a write for its payload and one for the framing
     * around it.
     */
    @ParameterizedTest
    @CsvSource({"false, 14", "true, 14", "false, 18", "true, 18"})
    void fourKibibytePayloadsUnderADdpHeaderAreGathered(boolean markers, int ddpHeader) {
        EmbeddedChannel ch = new EmbeddedChannel();
        FpduEncoder encoder = encoderOn(ch, markers);
        FpduWriter reference = new FpduWriter(true, markers, 65535, 0);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        Random r = new Random(11);
        for (int i = 0; i < 3; i++) {
            sendRandomFpdu(encoder, ch, reference, expected, r, ddpHeader, 4096);
        }
        ch.flush();
        ByteBuf only = ch.readOutbound();
        assertThat((Object) ch.readOutbound()).as("one write for the three FPDUs").isNull();
        assertThat(ByteBufUtil.getBytes(only)).isEqualTo(expected.toByteArray());
        only.release();
        assertThat(ch.finish()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void lentPayloadsAreCopiedWhenGatheredAndSlicedWhenNotAndStayTheCallers(boolean markers) {
        EmbeddedChannel ch = new EmbeddedChannel();
        FpduEncoder encoder = encoderOn(ch, markers);
        FpduWriter reference = new FpduWriter(true, markers, 65535, 0);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        Random r = new Random(13);
        int[] payloads = {4000, 4000, 9000, 600}; // the third is too long to gather: written apart, as a slice
        ByteBuf source = TestBuffers.ALLOC.directBuffer(20_000);
        try {
            for (int payload : payloads) {
                RandomFpdu f = randomFpdu(encoder, reference, expected, r, 14, payload);
                boolean gathered = payload <= 4096;
                int at = gathered ? 7 : 10_007;
                source.setBytes(at, f.payload());
                encoder.send(f.header(), source, at, payload, ch.voidPromise());
                if (gathered) {
                    source.setZero(at, payload); // reused at once: a gathered payload must have been copied
                }
            }
            ch.flush();
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            int writes = 0;
            for (ByteBuf b; (b = ch.readOutbound()) != null; writes++) {
                wire.writeBytes(TestBuffers.drain(b));
            }
            assertThat(writes).as("the gathered pair, then the 9000-octet payload apart").isGreaterThanOrEqualTo(3);
            assertThat(wire.toByteArray()).isEqualTo(expected.toByteArray());
        } finally {
            assertThat(source.refCnt()).as("the source is never kept or released by the encoder").isEqualTo(1);
            source.release();
        }
        assertThat(ch.finish()).isFalse();
    }

    /**
     * Sends an FPDU of random header and payload octets through {@code encoder} (the header in a buffer with the
     * encoder's head- and tailroom, the payload apart, with a void promise) and appends what {@code reference}
     * frames of the same ULPDU to {@code expected}.
     */
    private static void sendRandomFpdu(FpduEncoder encoder, EmbeddedChannel ch, FpduWriter reference,
                                       ByteArrayOutputStream expected, Random r, int headerLength, int payload) {
        RandomFpdu f = randomFpdu(encoder, reference, expected, r, headerLength, payload);
        encoder.send(f.header(), TestBuffers.direct(f.payload()), ch.voidPromise());
    }

    /** A ULPDU's header, in a buffer with the encoder's room around it, and its payload. */
    private record RandomFpdu(ByteBuf header, byte[] payload) {}

    /**
     * Random header and payload octets, as {@link #sendRandomFpdu} sends them; what {@code reference} frames of the
     * ULPDU is appended to {@code expected}.
     */
    private static RandomFpdu randomFpdu(FpduEncoder encoder, FpduWriter reference, ByteArrayOutputStream expected,
                                         Random r, int headerLength, int payload) {
        byte[] h = new byte[headerLength];
        byte[] p = new byte[payload];
        r.nextBytes(h);
        r.nextBytes(p);
        byte[] ulpdu = new byte[h.length + p.length];
        System.arraycopy(h, 0, ulpdu, 0, h.length);
        System.arraycopy(p, 0, ulpdu, h.length, p.length);
        expected.writeBytes(TestBuffers.drain(reference.encode(TestBuffers.direct(ulpdu), TestBuffers.ALLOC)));
        ByteBuf header = TestBuffers.ALLOC.directBuffer(encoder.headroom() + h.length + encoder.tailroom());
        header.setIndex(encoder.headroom(), encoder.headroom()).writeBytes(h);
        return new RandomFpdu(header, p);
    }

    /**
     * ULPDUs written in place ({@link FpduEncoder#sendInPlace}) between FPDUs sent as buffers, small and large, across
     * a full gathering buffer and a flush: the octets on the wire are those of the FPDUs one by one, in order. The
     * encoder refuses, having called nothing, what it would not gather: a ULPDU that markers would split, one too
     * long to gather, any with gathering off.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void ulpdusWrittenInPlaceAreTheSameOctetsInTheSameOrder(boolean markers) {
        EmbeddedChannel ch = new EmbeddedChannel();
        FpduEncoder encoder = encoderOn(ch, markers);
        FpduWriter reference = new FpduWriter(true, markers, 65535, 0);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        Random r = new Random(11);
        int inPlace = 0;
        int refused = 0;
        for (int i = 0; i < 400; i++) {
            int size = r.nextInt(10) == 0 ? FpduEncoder.GATHER_LIMIT + r.nextInt(3000) : r.nextInt(600);
            byte[] ulpdu = new byte[size];
            r.nextBytes(ulpdu);
            if (r.nextInt(3) == 0) {
                expected.writeBytes(TestBuffers.drain(reference.encode(TestBuffers.direct(ulpdu), TestBuffers.ALLOC)));
                encoder.send(TestBuffers.direct(ulpdu), null, ch.voidPromise());
            } else {
                int[] calls = {0};
                boolean taken = encoder.sendInPlace(size, (buffer, index) -> {
                    calls[0]++;
                    buffer.setBytes(index, ulpdu);
                });
                if (taken) {
                    inPlace++;
                    assertThat(calls[0]).isEqualTo(1);
                    expected.writeBytes(TestBuffers.drain(reference.encode(TestBuffers.direct(ulpdu),
                            TestBuffers.ALLOC)));
                } else {
                    refused++;
                    assertThat(calls[0]).as("refused before anything was written").isZero();
                    assertThat(size > FpduEncoder.GATHER_LIMIT - 16 || markers).isTrue();
                }
            }
            if (r.nextInt(50) == 0) {
                ch.flush();
                drainInto(ch, wire);
            }
        }
        ch.flush();
        drainInto(ch, wire);
        assertThat(wire.toByteArray()).isEqualTo(expected.toByteArray());
        assertThat(inPlace).isGreaterThan(markers ? 50 : 200); // with markers, a ULPDU a marker falls in is refused
        assertThat(refused).isGreaterThan(0); // the long ones
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void contentThatThrowsWritesNothingAndTheStreamGoesOn() {
        EmbeddedChannel ch = new EmbeddedChannel();
        FpduEncoder encoder = encoderOn(ch, false);
        FpduWriter reference = new FpduWriter(true, false, 65535, 0);
        byte[] a = new byte[40];
        new Random(5).nextBytes(a);
        assertThat(encoder.sendInPlace(40, (buffer, index) -> buffer.setBytes(index, a))).isTrue();
        RuntimeException boom = new IllegalStateException("memory went away");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> encoder.sendInPlace(64, (buffer, index) -> {
            buffer.setZero(index, 64);
            throw boom;
        })).isSameAs(boom);
        assertThat(encoder.sendInPlace(40, (buffer, index) -> buffer.setBytes(index, a))).isTrue();
        ch.flush();
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        drainInto(ch, wire);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 2; i++) {
            expected.writeBytes(TestBuffers.drain(reference.encode(TestBuffers.direct(a), TestBuffers.ALLOC)));
        }
        assertThat(wire.toByteArray()).isEqualTo(expected.toByteArray());
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void withGatheringOffOrFpdusHeldNothingIsWrittenInPlace() {
        EmbeddedChannel ch = new EmbeddedChannel();
        FpduEncoder encoder = encoderOn(ch, false);
        encoder.gatherSmallFpdus(false);
        assertThat(encoder.sendInPlace(8, (buffer, index) -> {
            throw new AssertionError("called");
        })).isFalse();
        assertThat(ch.finish()).isFalse();
        EmbeddedChannel held = new EmbeddedChannel();
        FpduEncoder holding = new FpduEncoder(new FpduWriter(true, false, 65535, 0), true);
        held.pipeline().addLast(holding);
        assertThat(holding.sendInPlace(8, (buffer, index) -> {
            throw new AssertionError("called");
        })).as("a Responder's FPDUs wait for the Initiator's first").isFalse();
        assertThat(held.finish()).isFalse();
    }

    /** An encoder (CRC on, MULPDU 65535, stream offset 0, not holding) in {@code ch}'s pipeline. */
    private static FpduEncoder encoderOn(EmbeddedChannel ch, boolean markers) {
        FpduEncoder encoder = new FpduEncoder(new FpduWriter(true, markers, 65535, 0), false);
        ch.pipeline().addLast(encoder);
        return encoder;
    }

    private static void drainInto(EmbeddedChannel ch, ByteArrayOutputStream wire) {
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            wire.writeBytes(ByteBufUtil.getBytes(b));
            b.release();
        }
    }

    @Test
    void withGatheringOffEveryFpduIsItsOwnWrite() {
        EmbeddedChannel ch = new EmbeddedChannel();
        FpduEncoder encoder = encoderOn(ch, false);
        encoder.gatherSmallFpdus(false);
        Random r = new Random(3);
        for (int i = 0; i < 3; i++) {
            encoder.send(ulpdu(r, 64), null, ch.voidPromise());
        }
        ch.flush();
        int writes = 0;
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            writes++;
            b.release();
        }
        assertThat(writes).as("each FPDU in its parts, as framed").isEqualTo(3 * partsPerFpdu(false)[0]);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void gatheredFpdusNotFlushedAreReleasedWhenTheChannelCloses() {
        EmbeddedChannel ch = new EmbeddedChannel();
        FpduEncoder encoder = encoderOn(ch, false);
        encoder.send(ulpdu(new Random(1), 64), null, ch.voidPromise());
        assertThat((Object) ch.readOutbound()).isNull();
        ch.close(); // the leak detector (PARANOID) fails the run if the gathering buffer is not released
        assertThat(ch.finish()).isFalse();
    }

    private static ByteBuf ulpdu(Random r, int size) {
        byte[] b = new byte[size];
        r.nextBytes(b);
        return TestBuffers.direct(b);
    }

    /** How many writes each FPDU of {@link #SIZES} takes when framed alone (from a buffer without headroom). */
    private static int[] partsPerFpdu(boolean markers) {
        FpduWriter w = new FpduWriter(true, markers, 65535, 0);
        Random r = new Random(3);
        int[] parts = new int[SIZES.length];
        for (int i = 0; i < SIZES.length; i++) {
            int k = i;
            w.write(ulpdu(r, SIZES[i]), null, TestBuffers.ALLOC, (part, last) -> {
                parts[k]++;
                part.release();
            });
        }
        return parts;
    }

    /**
     * How many writes {@link #SIZES} take when FPDU {@code own} has a promise of its own: each part longer than
     * {@link FpduEncoder#PART_GATHER_LIMIT} of an FPDU that is not gathered is a write; everything between two such
     * parts (gathered FPDUs, framing, markers) is one, and the FPDU with a promise ends one with its last part.
     */
    private static int expectedWrites(boolean markers, int own) {
        FpduWriter w = new FpduWriter(true, markers, 65535, 0);
        Random r = new Random(3);
        int[] writes = {0};
        boolean[] pending = {false};
        for (int i = 0; i < SIZES.length; i++) {
            boolean gathered = i != own && SIZES[i] + 2 + 3 + 4 + 4 * (2 + SIZES[i] / 508) <= FpduEncoder.GATHER_LIMIT;
            boolean ends = i == own;
            w.write(ulpdu(r, SIZES[i]), null, TestBuffers.ALLOC, (part, last) -> {
                if (gathered || part.readableBytes() <= FpduEncoder.PART_GATHER_LIMIT) {
                    pending[0] = true;
                    if (last && ends) {
                        writes[0]++;
                        pending[0] = false;
                    }
                } else {
                    writes[0] += pending[0] ? 2 : 1;
                    pending[0] = false;
                }
                part.release();
            });
        }
        return writes[0] + 1; // the rest, with the marker
    }

    /** The same FPDUs framed one by one by a writer of its own. */
    private static byte[] reference(boolean markers) {
        FpduWriter w = new FpduWriter(true, markers, 65535, 0);
        Random r = new Random(3);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int size : SIZES) {
            out.writeBytes(TestBuffers.drain(w.encode(ulpdu(r, size), TestBuffers.ALLOC)));
        }
        return out.toByteArray();
    }
}
