package org.iwarp4j.mpa.startup;

import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.MpaRejection;
import org.iwarp4j.mpa.MpaRole;
import org.iwarp4j.mpa.Mulpdu;
import org.iwarp4j.mpa.RtrReplyPolicy;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.StartupOutcome;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.iwarp4j.mpa.frame.EnhancedConnectionData.NO_NEGOTIATION;

/**
 * Every negotiation cell: Rev 1/2 × M × C (both ends) × p2p × RTR offers/support × IRD/ORD incl.
 * 0x3FFF, run through both pure state machines (RFC 5044 §4.4, §7.1.1, §7.3; RFC 6581 §9.1–9.3, §10).
 */
class NegotiationTest {

    private static final int[] IRD_ORD = {0, 1, 4, 16, NO_NEGOTIATION};
    private static final List<List<RtrType>> RTR_SETS = List.of(
            List.of(RtrType.WRITE), List.of(RtrType.READ), List.of(RtrType.SEND),
            List.of(RtrType.WRITE, RtrType.READ, RtrType.SEND), List.of(RtrType.READ, RtrType.SEND));

    @Test
    void everyCell() {
        int cells = 0;
        for (int rev : new int[] {1, 2}) {
            for (int bits = 0; bits < 16; bits++) {
                boolean im = (bits & 1) != 0, ic = (bits & 2) != 0, rm = (bits & 4) != 0, rc = (bits & 8) != 0;
                for (boolean p2p : rev == 2 ? new boolean[] {false, true} : new boolean[] {false}) {
                    for (List<RtrType> offered : p2p ? RTR_SETS : List.of(RTR_SETS.get(3))) {
                        for (List<RtrType> supported : p2p ? RTR_SETS : List.of(RTR_SETS.get(3))) {
                            for (RtrReplyPolicy policy : RtrReplyPolicy.values()) {
                                for (int iIrd : rev == 2 ? IRD_ORD : new int[] {16}) {
                                    for (int iOrd : rev == 2 ? IRD_ORD : new int[] {16}) {
                                        for (int rOrd : rev == 2 ? new int[] {0, 4, 32, NO_NEGOTIATION}
                                                : new int[] {16}) {
                                            MpaConfig ic_ = MpaConfig.builder().revision(rev).markers(im).crc(ic)
                                                    .peerToPeer(p2p).rtrTypes(offered).ird(iIrd).ord(iOrd).build();
                                            MpaConfig rc_ = MpaConfig.builder().revision(2).markers(rm).crc(rc)
                                                    .rtrTypes(supported).rtrReplyPolicy(policy).ird(8).irdLimit(16)
                                                    .ord(rOrd).build();
                                            checkCell(ic_, rc_);
                                            cells++;
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assertThat(cells).isGreaterThan(10_000);
    }

    private static void checkCell(MpaConfig ic, MpaConfig rc) {
        InitiatorStartup initiator = new InitiatorStartup(ic, 1460);
        ResponderStartup responder = new ResponderStartup(rc, 1460);
        MpaFrame request = initiator.request();
        // RFC 6581 §10: enhanced format only with Rev 2
        assertThat(request.enhancedData() != null).isEqualTo(ic.revision() == 2);
        assertThat(request.revision()).isEqualTo(ic.revision());
        responder.onRequest(request);
        ResponderStartup.Accepted accepted = responder.accept(responder.defaultAcceptance());
        MpaFrame reply = accepted.reply();
        MpaParameters r = accepted.parameters();
        StartupOutcome outcome = initiator.onReply(reply);
        assertThat(outcome).isInstanceOf(MpaParameters.class);
        MpaParameters i = (MpaParameters) outcome;

        // MPA-64: S echo, same revision
        assertThat(reply.enhancedData() != null).isEqualTo(request.enhancedData() != null);
        assertThat(reply.revision()).isEqualTo(request.revision());
        // MPA-26: C in either frame ⇒ CRC both ways
        boolean crc = ic.crc() || rc.crc();
        assertThat(i.crc()).isEqualTo(crc);
        assertThat(r.crc()).isEqualTo(crc);
        // MPA-25 / §7.3: M in the Request binds the Responder, M in the Reply binds the Initiator
        assertThat(r.txMarkers()).isEqualTo(ic.markers());
        assertThat(i.rxMarkers()).isEqualTo(ic.markers());
        assertThat(i.txMarkers()).isEqualTo(rc.markers());
        assertThat(r.rxMarkers()).isEqualTo(rc.markers());
        assertThat(i.revision()).isEqualTo(ic.revision());
        assertThat(i.mulpdu()).isEqualTo(Mulpdu.of(1460, i.txMarkers()));

        if (request.enhancedData() == null) {
            assertThat(i.requiredTerminate()).isNull();
            assertThat(i.rtr()).isNull();
            return;
        }
        EnhancedConnectionData q = request.enhancedData();
        EnhancedConnectionData p = reply.enhancedData();
        // MPA-70: 0x3FFF
        if (q.ird() == NO_NEGOTIATION) {
            assertThat(p.ord()).isEqualTo(NO_NEGOTIATION);
            assertThat(r.ord()).isEqualTo(rc.ord());
        } else {
            // MPA-68: Responder ORD ≤ Initiator IRD
            assertThat(p.ord()).isLessThanOrEqualTo(q.ird());
            assertThat(r.ord()).isEqualTo(p.ord());
        }
        if (q.ord() == NO_NEGOTIATION) {
            assertThat(p.ird()).isEqualTo(NO_NEGOTIATION);
        }
        if (p.ird() == NO_NEGOTIATION) {
            assertThat(i.ord()).isEqualTo(ic.ord());
        } else {
            // MPA-69: Initiator ORD ≤ Responder IRD
            assertThat(i.ord()).isLessThanOrEqualTo(p.ird());
        }
        if (p.ord() == NO_NEGOTIATION) {
            assertThat(i.ird()).isEqualTo(ic.ird());
        } else if (i.requiredTerminate() != MpaError.INSUFFICIENT_IRD) {
            // MPA-69: Initiator IRD ≥ Responder ORD
            assertThat(i.ird()).isGreaterThanOrEqualTo(p.ord());
        } else {
            assertThat(p.ord()).isGreaterThan(ic.irdLimit());
        }
        // MPA-71…73: A echo; with A=0 no flags
        assertThat(p.peerToPeer()).isEqualTo(q.peerToPeer());
        if (!q.peerToPeer()) {
            assertThat(q.rtrFlags()).isEmpty();
            assertThat(p.rtrFlags()).isEmpty();
            assertThat(i.rtr()).isNull();
            assertThat(i.requiredTerminate()).isNull();
            return;
        }
        assertThat(q.rtrFlags()).isEqualTo(EnumSet.copyOf(ic.rtrTypes()));
        Set<RtrType> flags = p.rtrFlags();
        assertThat(flags).isNotEmpty(); // MPA-72: at least one
        assertThat(rc.rtrTypes()).containsAll(flags); // only supported ones
        Set<RtrType> offeredSupported = EnumSet.copyOf(ic.rtrTypes());
        offeredSupported.retainAll(rc.rtrTypes());
        if (rc.rtrReplyPolicy() == RtrReplyPolicy.ALL_SUPPORTED && !offeredSupported.isEmpty()) {
            assertThat(flags).isEqualTo(offeredSupported); // SHOULD set each offered supported flag
        }
        if (flags.contains(RtrType.READ) && p.ird() != NO_NEGOTIATION) {
            assertThat(p.ird()).isGreaterThanOrEqualTo(1); // a Read RTR takes an IRD slot
        }
        // MPA-74: the Initiator picks a mutually supported RTR or must Terminate 0x07
        Set<RtrType> mutual = EnumSet.copyOf(q.rtrFlags());
        mutual.retainAll(flags);
        if (i.requiredTerminate() == null) {
            assertThat(i.rtr()).isNotNull();
            assertThat(mutual).contains(i.rtr());
            assertThat(i.rtr()).isEqualTo(firstUsable(ic.rtrTypes(), mutual, i.ord()));
        } else if (i.requiredTerminate() == MpaError.NO_MATCHING_RTR) {
            assertThat(firstUsable(ic.rtrTypes(), mutual, i.ord())).isNull();
            assertThat(i.rtr()).isNull();
        }
        assertThat(r.rtrTypes()).isEqualTo(flags);
    }

    private static RtrType firstUsable(List<RtrType> pref, Set<RtrType> mutual, int ord) {
        for (RtrType t : pref) {
            if (mutual.contains(t) && (t != RtrType.READ || ord >= 1)) {
                return t;
            }
        }
        return null;
    }

    @Test
    void conversationVectorP2pReadRtrReplyIsReproduced() {
        // conv-rev2-p2p-read-rtr: Request A=1 B C D, IRD 16 ORD 8, pd "p2p-hello" → Reply A=1 D, IRD 8 ORD 4, pd
        // "p2p-ok"
        MpaConfig ic = MpaConfig.builder().peerToPeer(true).rtrTypes(RtrType.SEND, RtrType.WRITE, RtrType.READ)
                .ird(16).ord(8).privateData("p2p-hello".getBytes()).build();
        MpaConfig rc =
                MpaConfig.builder().rtrTypes(RtrType.READ).ird(8).ord(4).privateData("p2p-ok".getBytes()).build();
        InitiatorStartup i = new InitiatorStartup(ic, 1460);
        assertThat(HexFormat.of().formatHex(i.request().toByteArray()))
                .isEqualTo("4d504120494420526571204672616d655002000dc010c0087032702d68656c6c6f");
        ResponderStartup r = new ResponderStartup(rc, 1460);
        r.onRequest(i.request());
        MpaFrame reply = r.accept(r.defaultAcceptance()).reply();
        assertThat(HexFormat.of().formatHex(reply.toByteArray()))
                .isEqualTo("4d504120494420526570204672616d655002000a800840047032702d6f6b");
        MpaParameters p = (MpaParameters) i.onReply(reply);
        assertThat(p.rtr()).isEqualTo(RtrType.READ);
        assertThat(p.ird()).isEqualTo(16);
        assertThat(p.ord()).isEqualTo(8);
        assertThat(p.peerIrd()).isEqualTo(8);
        assertThat(p.peerOrd()).isEqualTo(4);
        assertThat(p.peerPrivateData()).isEqualTo("p2p-ok".getBytes());
    }

    @Test
    void initiatorThatCannotProvideTheIrdMustTerminate0x06() {
        MpaConfig ic = MpaConfig.builder().ird(2).ord(2).build();
        InitiatorStartup i = new InitiatorStartup(ic, 1460);
        MpaFrame reply = MpaFrame.enhanced(MpaFrameType.REPLY, false, true, false,
                new EnhancedConnectionData(false, false, 2, false, false, 8), null);
        MpaParameters p = (MpaParameters) i.onReply(reply);
        assertThat(p.requiredTerminate()).isEqualTo(MpaError.INSUFFICIENT_IRD);
        // with a higher limit it raises its IRD instead
        InitiatorStartup raised = new InitiatorStartup(MpaConfig.builder().ird(2).irdLimit(8).ord(2).build(), 1460);
        MpaParameters ok = (MpaParameters) raised.onReply(reply);
        assertThat(ok.requiredTerminate()).isNull();
        assertThat(ok.ird()).isEqualTo(8);
    }

    @Test
    void responderWithoutAEchoOrUsableRtrMeansTerminate0x07() {
        MpaConfig ic = MpaConfig.builder().peerToPeer(true).rtrTypes(RtrType.SEND).build();
        MpaFrame noA = MpaFrame.enhanced(MpaFrameType.REPLY, false, true, false,
                new EnhancedConnectionData(false, false, 16, false, false, 16), null);
        assertThat(((MpaParameters) new InitiatorStartup(ic, 1460).onReply(noA)).requiredTerminate())
                .isEqualTo(MpaError.NO_MATCHING_RTR);
        MpaFrame writeOnly = MpaFrame.enhanced(MpaFrameType.REPLY, false, true, false,
                new EnhancedConnectionData(true, false, 16, true, false, 16), null);
        MpaParameters p = (MpaParameters) new InitiatorStartup(ic, 1460).onReply(writeOnly);
        assertThat(p.requiredTerminate()).isEqualTo(MpaError.NO_MATCHING_RTR);
        assertThat(p.rtr()).isNull();
        // a Read RTR needs an ORD slot
        MpaConfig readOnly = MpaConfig.builder().peerToPeer(true).rtrTypes(RtrType.READ).ord(4).build();
        MpaFrame readNoIrd = MpaFrame.enhanced(MpaFrameType.REPLY, false, true, false,
                new EnhancedConnectionData(true, false, 0, false, true, 16), null);
        assertThat(((MpaParameters) new InitiatorStartup(readOnly, 1460).onReply(readNoIrd)).requiredTerminate())
                .isEqualTo(MpaError.NO_MATCHING_RTR);
    }

    @Test
    void rejectsCarryPrivateDataAndPeerIrdOrd() {
        MpaConfig ic = MpaConfig.builder().ird(1).ord(1).build();
        MpaConfig rc = MpaConfig.builder().requiredOrd(4).ord(4).build();
        InitiatorStartup i = new InitiatorStartup(ic, 1460);
        ResponderStartup r = new ResponderStartup(rc, 1460);
        r.onRequest(i.request());
        assertThat(r.insufficientInitiatorIrd()).isTrue();
        MpaRejection rej = r.reject("need ORD 4".getBytes(), 4);
        assertThat(rej.reply().rejected()).isTrue();
        assertThat(rej.reply().enhancedData().ord()).isEqualTo(4);
        MpaRejection seen = (MpaRejection) i.onReply(rej.reply());
        assertThat(seen.rejectedByPeer()).isTrue();
        assertThat(seen.role()).isEqualTo(MpaRole.INITIATOR);
        assertThat(seen.reason()).isEqualTo(MpaError.INSUFFICIENT_IRD);
        assertThat(seen.responderOrd()).isEqualTo(4);
        assertThat(seen.replyPrivateData()).isEqualTo("need ORD 4".getBytes());
        // Rev 1 reject with private data (conv-rev1-reject style)
        InitiatorStartup i1 = new InitiatorStartup(MpaConfig.builder().revision(1).build(), 1460);
        ResponderStartup r1 = new ResponderStartup(MpaConfig.defaults(), 1460);
        r1.onRequest(i1.request());
        MpaRejection rej1 = r1.reject("rejected: unknown service".getBytes(), -1);
        assertThat(rej1.reply().toByteArray()).isEqualTo(HexFormat.of().parseHex(
                "4d504120494420526570204672616d656001001972656a65637465643a20756e6b6e6f776e2073657276696365"));
        assertThat(((MpaRejection) i1.onReply(rej1.reply())).reason()).isNull();
    }

    @Test
    void roleConflictsAndRevisionMismatch() {
        InitiatorStartup i = new InitiatorStartup(MpaConfig.defaults(), 1460);
        assertThatThrownBy(() -> i.onReply(new InitiatorStartup(MpaConfig.defaults(), 1460).request()))
                .isInstanceOf(MpaException.class).hasMessageContaining("Initiator/Initiator");
        ResponderStartup r = new ResponderStartup(MpaConfig.defaults(), 1460);
        assertThatThrownBy(() -> r.onRequest(MpaFrame.rev1(MpaFrameType.REPLY, false, true, false, null)))
                .isInstanceOf(MpaException.class).hasMessageContaining("Responders");
        // MPA-65: a Rev-1-only Responder treats a Rev 2 Request as badly formatted
        ResponderStartup old = new ResponderStartup(MpaConfig.builder().revision(1).build(), 1460);
        assertThatThrownBy(() -> old.onRequest(i.request())).isInstanceOf(MpaException.class)
                .extracting(e -> ((MpaException) e).error()).isEqualTo(MpaError.INVALID_STARTUP_FRAME);
        // MPA-62: a Rev 2 listener keeps accepting Rev 1
        ResponderStartup listener = new ResponderStartup(MpaConfig.defaults(), 1460);
        listener.onRequest(new InitiatorStartup(MpaConfig.builder().revision(1).build(), 1460).request());
        assertThat(listener.accept(listener.defaultAcceptance()).reply().revision()).isEqualTo(1);
        // S mismatch in the Reply
        InitiatorStartup enh = new InitiatorStartup(MpaConfig.defaults(), 1460);
        assertThatThrownBy(() -> enh.onReply(MpaFrame.rev1(MpaFrameType.REPLY, false, true, false, null)))
                .isInstanceOf(MpaException.class).hasMessageContaining("S=1");
        List<Object> none = new ArrayList<>();
        assertThat(none).isEmpty();
    }
}
