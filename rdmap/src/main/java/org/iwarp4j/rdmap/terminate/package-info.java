/**
 * The Terminate message (RFC 5040 §4.8, §5.4, §7): {@link org.iwarp4j.rdmap.terminate.TerminateCause}
 * lists every registered Layer/EType/Code (RDMAP, DDP, MPA incl. RFC 6581);
 * {@link org.iwarp4j.rdmap.terminate.TerminateErrorType} carries the Figure 10 rules for which headers a
 * Terminate copies; {@link org.iwarp4j.rdmap.terminate.Terminate#forIncomingMessage} applies them;
 * {@link org.iwarp4j.rdmap.terminate.TerminateEncoder} writes the RFC layout and
 * {@link org.iwarp4j.rdmap.terminate.TerminateDecoder} reads any layout without ever throwing.
 */
package org.iwarp4j.rdmap.terminate;
