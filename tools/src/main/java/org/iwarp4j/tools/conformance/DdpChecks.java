package org.iwarp4j.tools.conformance;

import static org.iwarp4j.tools.conformance.Judge.cause;

import java.util.Arrays;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.oracle.Segment;
import org.iwarp4j.tools.conformance.Check.Need;
import org.iwarp4j.tools.conformance.Judge.Expect;
import org.iwarp4j.tools.conformance.Judge.Headers;

/** Groups 4 and 5: DDP tagged and untagged placement rules and their errors (RFC 5041 §4, §5, §7). */
final class DdpChecks {

    /** An STag no peer advertised to us (its key octet is unlikely to match anything). */
    static final int UNKNOWN_STAG = 0x1badbe5a;

    private DdpChecks() {}

    static int invalidStag() {
        return cause(1, 1, 0);
    }

    static int bounds() {
        return cause(1, 1, 1);
    }

    static void tagged(Catalog c) {
        c.group("DDP tagged buffers (RFC 5041 §4.2, §5, §7)");
        c.check("answers a Write to an STag it never advertised with Terminate 0x1/0x1/0x00")
                .rule("RFC 5041 §7.1, §7.2", "DDP-29", "DDP-30", "DDP-31").run(s -> {
                    Segment w = Segment.tagged(Segment.WRITE, UNKNOWN_STAG, 0).payload(16);
                    return Judge.terminates(s, w, Expect.of(invalidStag(), Headers.DDP, w).or(cause(1, 1, 2)));
                });
        c.check("answers a Write whose STag differs from an advertised one in its key with 0x1/0x1/0x00")
                .rule("RFC 5041 §7.1, §7.2, RFC 5040 §8.1.1", "DDP-29", "RDMAP-32").needs(Need.WRITABLE_STAG)
                .run(s -> {
                    Segment w = Segment.tagged(Segment.WRITE, s.buffer.stag() ^ 0x5a, s.buffer.to()).payload(16);
                    return Judge.terminates(s, w, Expect.of(invalidStag(), Headers.DDP, w).or(cause(1, 1, 2)));
                });
        c.check("answers a Write that runs 8 octets past the buffer with Terminate 0x1/0x1/0x01")
                .rule("RFC 5041 §7.1, §7.2", "DDP-29").needs(Need.WRITABLE_STAG).run(s -> {
                    Segment w = Segment.tagged(Segment.WRITE, s.buffer.stag(), s.buffer.to() + s.buffer.length() - 8)
                            .payload(16);
                    return Judge.terminates(s, w, Expect.of(bounds(), Headers.DDP, w));
                });
        c.check("answers a Write that starts 8 octets before the buffer with Terminate 0x1/0x1/0x01")
                .rule("RFC 5041 §7.1, §7.2", "DDP-29").needs(Need.WRITABLE_STAG).run(s -> {
                    if (Long.compareUnsigned(s.buffer.to(), 8) < 0) {
                        return Verdict.skip("the buffer starts at TO " + s.buffer.to() + ": nothing lies before it");
                    }
                    Segment w = Segment.tagged(Segment.WRITE, s.buffer.stag(), s.buffer.to() - 8).payload(16);
                    return Judge.terminates(s, w, Expect.of(bounds(), Headers.DDP, w));
                });
        c.check("answers a Write 1 GiB past the buffer with Terminate 0x1/0x1/0x01").rule("RFC 5041 §7.1, §7.2",
                "DDP-29").needs(Need.WRITABLE_STAG).run(s -> {
                    Segment w = Segment.tagged(Segment.WRITE, s.buffer.stag(), s.buffer.to() + (1L << 30)).payload(8);
                    return Judge.terminates(s, w, Expect.of(bounds(), Headers.DDP, w));
                });
        c.check("answers a Write whose TO + length wraps 2^64 with Terminate 0x1/0x1/0x03")
                .rule("RFC 5041 §7.1, §7.2", "DDP-29").needs(Need.WRITABLE_STAG).run(s -> {
                    Segment w = Segment.tagged(Segment.WRITE, s.buffer.stag(), -8L).payload(16);
                    // The segment is out of bounds as well; the RFC lists both checks, either may report.
                    return Judge.terminates(s, w, Expect.of(cause(1, 1, 3), Headers.DDP, w).or(bounds())
                            .orKnown(cause(1, 0, 0), "local-catastrophic"));
                });
        c.check("answers a Write to an unknown STag whose TO + length wraps 2^64 with a tagged-buffer error")
                .rule("RFC 5041 §7.1, §7.2", "DDP-29").run(s -> {
                    Segment w = Segment.tagged(Segment.WRITE, UNKNOWN_STAG, -8L).payload(16);
                    return Judge.terminates(s, w, Expect.of(cause(1, 1, 3), Headers.DDP, w).or(invalidStag())
                            .or(cause(1, 1, 2)));
                });
        c.check("takes a zero-length Write without checking its STag").rule("RFC 5041 §5.2", "DDP-19", "DDP-20")
                .needs(Need.ECHO).run(s -> {
                    s.wire.sendFpdu(Segment.tagged(Segment.WRITE, UNKNOWN_STAG, -1L).toBytes(),
                            "zero-length RDMA Write, unknown STag, TO 2^64-1");
                    return Probes.echo(s);
                });
        for (int dv : new int[] {0, 2, 3}) {
            c.check("answers a tagged segment with DDP version " + dv + " with Terminate 0x1/0x1/0x04")
                    .rule("RFC 5041 §4.1, §7.2", "DDP-05", "DDP-31").run(s -> {
                        Segment w = Segment.tagged(Segment.WRITE, UNKNOWN_STAG, 0).payload(16).ddpVersion(dv);
                        return Judge.terminates(s, w, Expect.of(cause(1, 1, 4), Headers.DDP, w));
                    });
        }
        c.check("places a two-segment Write sent last segment first").rule("RFC 5041 §5.3, §4.1", "DDP-22", "DDP-17")
                .needs(Need.WRITABLE_STAG, Need.ECHO).caution("writes into the peer's buffer").run(s -> {
                    int half = Math.max(1, Math.min(32, s.buffer.length() / 2));
                    s.wire.sendFpdu(Segment.tagged(Segment.WRITE, s.buffer.stag(), s.buffer.to() + half).payload(half)
                            .toBytes(), "RDMA Write, second half, L=1");
                    s.wire.sendFpdu(Segment.tagged(Segment.WRITE, s.buffer.stag(), s.buffer.to()).payload(half)
                            .last(false).toBytes(), "RDMA Write, first half, L=0");
                    return Probes.echo(s);
                });
        c.check("takes a Write of the whole advertised buffer").rule("RFC 5041 §5.2, §7.1", "DDP-18", "DDP-29")
                .needs(Need.WRITABLE_STAG, Need.ECHO).caution("writes into the peer's buffer").run(s -> {
                    s.wire.sendFpdu(Segment.tagged(Segment.WRITE, s.buffer.stag(), s.buffer.to())
                            .payload(Math.min(s.buffer.length(), 4096)).toBytes(), "RDMA Write of the whole buffer");
                    return Probes.echo(s);
                });
        c.check("answers a Read Response to an STag it never advertised with a Terminate")
                .rule("RFC 5041 §7.1, RFC 5040 §5.2.2", "DDP-29", "RDMAP-15").run(s -> {
                    Segment w = Segment.tagged(Segment.READ_RESPONSE, UNKNOWN_STAG, 0).payload(16);
                    return Judge.terminates(s, w, Expect.of(invalidStag(), Headers.DDP, w).or(cause(1, 1, 2))
                            .or(cause(0, 2, 6)).orKnown(cause(1, 0, 0), "local-catastrophic"));
                });
    }

    static void untagged(Catalog c) {
        c.group("DDP untagged buffers (RFC 5041 §4.3, §5, §7)");
        for (int qn : new int[] {4, 5, 0x7FFFFFFF, 0xFFFFFFFF}) {
            c.check(String.format("answers a message on queue %d with Terminate 0x1/0x2/0x01",
                    Integer.toUnsignedLong(qn))).rule("RFC 5041 §7.1, §7.2, RFC 7306 §4.2", "DDP-28", "DDP-31")
                    .run(s -> {
                        Segment m = Segment.untagged(Segment.SEND, qn, 1).payload(16);
                        return Judge.terminates(s, m, Expect.of(cause(1, 2, 1), Headers.DDP, m));
                    });
        }
        for (int msn : new int[] {0, 7, 0x80000000, 0xFFFFFFFF}) {
            c.check(String.format("answers a Send with MSN %d (outside its window) with Terminate 0x1/0x2/0x03",
                    Integer.toUnsignedLong(msn))).rule("RFC 5041 §4.3, §7.1, §7.2", "DDP-11", "DDP-28").run(s -> {
                        Segment m = Segment.send(msn, new byte[16]);
                        // With no receive to match the MSN "no buffer available" is the same fact.
                        return Judge.terminates(s, m, Expect.of(cause(1, 2, 3), Headers.DDP, m).or(cause(1, 2, 2)));
                    });
        }
        c.check("answers a Send beyond the receives it posted with Terminate 0x1/0x2/0x02 or 0x03")
                .rule("RFC 5041 §7.1, §7.2, RFC 5040 §5.3", "DDP-28", "RDMAP-17").needs(Need.RECEIVE).run(s -> {
                    int msn = s.sendMsn + s.receives;
                    Segment m = Segment.send(msn, new byte[Math.min(8, s.receiveSize)]);
                    return Judge.terminates(s, m, Expect.of(cause(1, 2, 2), Headers.DDP, m).or(cause(1, 2, 3)));
                });
        c.check("answers a Send longer than its receive buffer with Terminate 0x1/0x2/0x05")
                .rule("RFC 5041 §7.1, §7.2, RFC 5040 §5.3", "DDP-28", "RDMAP-17").needs(Need.RECEIVE).run(s -> {
                    Segment m = Segment.send(s.sendMsn, new byte[s.receiveSize + 48]);
                    return Judge.terminates(s, m, Expect.of(cause(1, 2, 5), Headers.DDP, m)
                            .orKnown(cause(1, 2, 2), "too-long-as-no-buffer"));
                });
        c.check("answers a Send segment whose MO lies beyond the buffer with Terminate 0x1/0x2/0x04 or 0x05")
                .rule("RFC 5041 §7.1, §7.2", "DDP-12", "DDP-28").needs(Need.RECEIVE).run(s -> {
                    Segment m = Segment.send(s.sendMsn, new byte[8]).mo(s.receiveSize + 64);
                    return Judge.terminates(s, m, Expect.of(cause(1, 2, 4), Headers.DDP, m).or(cause(1, 2, 5))
                            .orKnown(cause(1, 2, 2), "too-long-as-no-buffer"));
                });
        for (int dv : new int[] {0, 2, 3}) {
            c.check("answers an untagged segment with DDP version " + dv + " with Terminate 0x1/0x2/0x06")
                    .rule("RFC 5041 §4.1, §7.2", "DDP-05", "DDP-31").run(s -> {
                        Segment m = Segment.send(1, new byte[16]).ddpVersion(dv);
                        return Judge.terminates(s, m, Expect.of(cause(1, 2, 6), Headers.DDP, m));
                    });
        }
        c.check("rejects a segment cut short inside its untagged header").rule("RFC 5041 §4.4", "DDP-13").run(s -> {
            s.wire.sendFpdu(Arrays.copyOf(Segment.send(1, new byte[0]).toBytes(), 10),
                    "10 octets of an untagged header");
            return FramingChecks.stalls(FramingChecks.rejects(s));
        });
        c.check("rejects a segment cut short inside its tagged header").rule("RFC 5041 §4.4", "DDP-13").run(s -> {
            s.wire.sendFpdu(Arrays.copyOf(Segment.tagged(Segment.WRITE, 1, 0).toBytes(), 6),
                    "6 octets of a tagged header");
            return FramingChecks.stalls(FramingChecks.rejects(s));
        });
        c.check("ignores the reserved bits of the DDP control field").rule("RFC 5041 §4.1", "DDP-04")
                .needs(Need.ECHO).run(s -> Probes.echo(s, Probes.zeroRead(s).ddpReserved(0xF),
                        FpduTamper.NONE, "zero-length Read Request, DDP Rsvd bits 1111"));
        c.check("delivers a Send that arrives in two segments").rule("RFC 5041 §4.3, §5.2, §5.4", "DDP-12",
                        "DDP-16", "DDP-23")
                .needs(Need.RECEIVE).role(Role.RESPONDER).run(s -> {
                    if (s.options.app() != App.RPING && s.options.app() != App.RDMA) {
                        return Verdict.skip("needs an application that answers our Send");
                    }
                    byte[] msg = s.options.app() == App.RPING
                            ? Session.advert(Session.OUR_ADDRESS, Session.OUR_STAG, s.options.rpingSize())
                            : new byte[16];
                    // In offset order (RFC 5041 §5.3: a sender should send a message's segments that way).
                    byte[] head = Arrays.copyOf(msg, 8);
                    byte[] tail = Arrays.copyOfRange(msg, 8, 16);
                    s.wire.sendFpdu(Segment.send(s.sendMsn, head).last(false).toBytes(), "Send, octets 0..7, L=0");
                    s.wire.sendFpdu(Segment.send(s.sendMsn, tail).mo(8).toBytes(), "Send, octets 8..15, MO 8, L=1");
                    s.sendMsn++;
                    return Judge.proceeds(s, "the application's answer to the Send, no Terminate",
                            v -> s.options.app() == App.RPING ? v.readRequest() != null
                                    : !v.tagged() && v.opcode() == Segment.SEND);
                });
    }
}
