/**
 * A scripted iWARP test peer, in the spirit of the qpid-protonj2 test driver: a peer on a real loopback
 * TCP socket (server or client) that runs a script — expect these octets (exactly, or matching a
 * predicate, or "an MPA Request with …", or "an FPDU whose ULPDU is …"), send these octets, inject raw or
 * corrupt octets, wait for the stack, expect FIN or RST, drop the connection — with bounded timeouts and
 * a failure message that shows what arrived against what was expected.
 *
 * <p>Entry point: {@link org.iwarp4j.testkit.peer.ScriptedPeer}. The peer knows MPA framing through its
 * own, deliberately independent and simple implementation ({@link org.iwarp4j.oracle.FpduFraming},
 * {@link org.iwarp4j.oracle.StartupFrame}), written from RFC 5044 §4 and §7 and checked against the
 * golden vectors: it is the oracle the stack is measured against, so it shares no code with {@code mpa}.
 *
 * <p>It can replay one side of a recorded conversation ({@link org.iwarp4j.testkit.ConversationStream}),
 * segment by segment, honouring causality: the next recorded segment of the peer's side goes out only
 * after the octets the stack must send before it have arrived
 * ({@link org.iwarp4j.testkit.peer.ScriptedPeer#replay}); {@link org.iwarp4j.testkit.peer.ConversationReplay}
 * gives the ULPDU-level timeline the stack's side has to play.
 */
package org.iwarp4j.testkit.peer;
