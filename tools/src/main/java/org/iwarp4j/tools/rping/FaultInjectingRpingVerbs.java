package org.iwarp4j.tools.rping;

import java.io.PrintWriter;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Stag;

/**
 * {@code iwarp rping --inject}: a decorator of the real {@link RpingVerbs} that commits one protocol error
 * (or makes the peer commit it) the first time the chance comes, says so on stderr, and otherwise passes
 * every call through unchanged. In the style of Aeron's debug channel endpoints: the fault lives here,
 * not in the protocol code.
 */
final class FaultInjectingRpingVerbs implements RpingVerbs {

    private final RpingVerbs delegate;
    private final RpingInjection injection;
    private final PrintWriter err;
    private boolean injected;
    private int receivesPosted;

    FaultInjectingRpingVerbs(RpingVerbs delegate, RpingInjection injection, PrintWriter err) {
        this.delegate = delegate;
        this.injection = injection;
        this.err = err;
    }

    @Override
    public void postReceive() {
        receivesPosted++;
        if (injection == RpingInjection.PEER_NO_RECV && receivesPosted == 2 && once()) {
            say("the receive just consumed is not re-posted: the peer's next Send finds none (RFC 5041 §7.2, "
                    + "DDP 0x1/0x2/0x02)");
            return;
        }
        delegate.postReceive();
    }

    @Override
    public void sendAdvert(Advert which, RemoteBuffer advert, int copies) {
        RemoteBuffer a = advert;
        if (injection == RpingInjection.PEER_BAD_STAG && which == Advert.SINK && once()) {
            a = withWrongStag(advert);
            say(String.format("the sink advert names STag %s instead of %s: the peer's RDMA Write hits an "
                    + "invalid STag (RFC 5041 §7.2, DDP 0x1/0x1/0x00)", a.stag(), advert.stag()));
        } else if (injection == RpingInjection.PEER_READ_BEYOND && which == Advert.SOURCE && once()) {
            a = shiftedBeyond(advert);
            say(String.format("the source advert starts at 0x%x, %d octets into the buffer: the peer's RDMA Read "
                    + "runs past the region (RFC 5040 §4.8, RDMAP 0x0/0x1/0x01)", a.taggedOffset(),
                    RpingInjection.BEYOND_OCTETS));
        }
        delegate.sendAdvert(which, a, copies + extraSend());
    }

    @Override
    public void sendGoAhead(int copies) {
        delegate.sendGoAhead(copies + extraSend());
    }

    /**
     * {@link RpingInjection#NO_RECV}: one more copy of the first Send, in the same post (so in the same TCP
     * segment): the peer's one receive takes the first, and it cannot have re-posted it for the second.
     */
    private int extraSend() {
        if (injection == RpingInjection.NO_RECV && once()) {
            say("the first Send goes out twice in one TCP segment: rping keeps one receive posted, so the peer has "
                    + "none for the second (RFC 5041 §7.2, DDP 0x1/0x2/0x02)");
            return 1;
        }
        return 0;
    }

    @Override
    public void read(RemoteBuffer source, int length) {
        RemoteBuffer s = source;
        if (injection == RpingInjection.READ_BEYOND && once()) {
            s = shiftedBeyond(source);
            say(String.format("RDMA Read of %d octets at 0x%x, %d octets past the advertised start: beyond the "
                    + "region (RFC 5040 §4.8, RDMAP 0x0/0x1/0x01)", length, s.taggedOffset(),
                    RpingInjection.BEYOND_OCTETS));
        }
        delegate.read(s, length);
    }

    @Override
    public void write(RemoteBuffer sink, int length) {
        RemoteBuffer s = sink;
        if (injection == RpingInjection.BAD_STAG && once()) {
            s = withWrongStag(sink);
            say(String.format("RDMA Write to STag %s instead of the advertised %s (RFC 5041 §7.2, DDP "
                    + "0x1/0x1/0x00)", s.stag(), sink.stag()));
        }
        delegate.write(s, length);
    }

    /** The same buffer under an STag whose key differs: one the peer never registered. */
    private static RemoteBuffer withWrongStag(RemoteBuffer b) {
        return new RemoteBuffer(new Stag(b.stag().value() ^ RpingInjection.STAG_KEY_FLIP), b.taggedOffset(),
                b.length());
    }

    /** The same length starting {@link RpingInjection#BEYOND_OCTETS} later: it runs past the region. */
    private static RemoteBuffer shiftedBeyond(RemoteBuffer b) {
        return new RemoteBuffer(b.stag(), b.taggedOffset() + RpingInjection.BEYOND_OCTETS, b.length());
    }

    private boolean once() {
        if (injected) {
            return false;
        }
        injected = true;
        return true;
    }

    private void say(String what) {
        err.println("rping: --inject " + injection.cliName + ": " + what);
        err.flush();
    }
}
