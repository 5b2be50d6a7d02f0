package org.iwarp4j.conformance.support;

import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.netty.MpaConnectRequest;
import org.iwarp4j.mpa.netty.MpaEstablishedEvent;
import org.iwarp4j.testkit.ConversationStream.Direction;
import org.iwarp4j.testkit.peer.ConversationReplay;
import org.iwarp4j.oracle.StartupFrame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The stack's side of a recorded conversation, played at ULPDU level from above MPA while a
 * {@link org.iwarp4j.testkit.peer.ScriptedPeer} replays the other side byte for byte: on Full Operation and
 * after each expected ULPDU it hands down the ULPDUs the recording sends next, so the octets MPA produces
 * must match the recording exactly. Callbacks run on the event loop.
 */
public final class RecordedSide {

    private final List<ConversationReplay.Ulpdu> timeline;
    private final Direction side;
    private final StackProbe probe;
    private final List<String> failures = new ArrayList<>();
    private volatile int next;

    public RecordedSide(ConversationReplay replay, Direction side, StackProbe probe) {
        this.timeline = replay.timeline();
        this.side = side;
        this.probe = probe;
        byte[] rejectPd = replay.reply().privateData();
        probe.onEvent(e -> {
            if (e instanceof MpaEstablishedEvent) {
                pump();
            } else if (e instanceof MpaConnectRequest cr) {
                if (replay.reply().rejected()) {
                    cr.reject(rejectPd);
                } else {
                    cr.accept();
                }
            }
        });
        probe.onUlpdu(u -> {
            if (next >= timeline.size() || timeline.get(next).direction() == side) {
                failures.add("unexpected ULPDU at timeline position " + next + ": " + u);
                return;
            }
            if (!Arrays.equals(timeline.get(next).octets(), u.octets())) {
                failures.add("timeline position " + next + ": expected " + timeline.get(next) + " but got " + u);
            }
            next++;
            pump();
        });
    }

    private void pump() {
        boolean wrote = false;
        while (next < timeline.size() && timeline.get(next).direction() == side) {
            probe.channel().write(Bytes.direct(timeline.get(next).octets()));
            next++;
            wrote = true;
        }
        if (wrote) {
            probe.channel().flush();
        }
    }

    public boolean done() {
        return next == timeline.size();
    }

    public List<String> failures() {
        return failures;
    }

    /** A configuration that makes the stack send exactly {@code own} (its recorded frame) as {@code role}. */
    public static MpaConfig configFor(StartupFrame own, boolean initiator) {
        MpaConfig.Builder b = MpaConfig.builder().revision(own.revision()).crc(own.crc()).markers(own.markers())
                .privateData(own.ulpPrivateData()).autoAccept(initiator || !own.rejected());
        StartupFrame.Enhanced e = own.enhanced();
        if (e != null) {
            b.ird(e.ird()).irdLimit(e.ird()).ord(e.ord()).peerToPeer(initiator && e.peerToPeer());
            List<RtrType> types = new ArrayList<>();
            if (e.writeRtr()) {
                types.add(RtrType.WRITE);
            }
            if (e.readRtr()) {
                types.add(RtrType.READ);
            }
            if (e.sendRtr()) {
                types.add(RtrType.SEND);
            }
            if (!types.isEmpty()) {
                b.rtrTypes(types);
            }
        }
        return b.build();
    }
}
