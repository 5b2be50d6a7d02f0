/**
 * The per-stream RDMAP engine: {@link org.iwarp4j.rdmap.stream.RdmapStream}, a pure core on top of DDP
 * that the verbs layer drives (operations and receives in, one DDP segment at a time out, ULPDUs in,
 * events to an {@link org.iwarp4j.rdmap.stream.RdmapListener}).
 *
 * <h2>Ordering and completion rules (RFC 5040 §5.5, RFC 7306 §5.4, §7) and how they hold</h2>
 * <table>
 *   <caption>Rules and mechanisms</caption>
 *   <tr><th>Rule</th><th>Mechanism</th></tr>
 *   <tr><td>Messages to DDP in submission order [RDMAP-20]</td>
 *       <td>the send queue starts entries strictly in order and writes one message completely before the
 *       next ({@code Requester}, {@code Transmitter})</td></tr>
 *   <tr><td>Local completions in submission order [RDMAP-22]</td>
 *       <td>completions are reported from the oldest entry only; a finished later entry waits</td></tr>
 *   <tr><td>Write/Send complete when the LLP took them [RDMAP-21]</td>
 *       <td>an entry completes once {@code segmentsWritten} acknowledged its last segment</td></tr>
 *   <tr><td>Read/Atomic complete when the response is delivered [RDMAP-25, EXT-12]</td>
 *       <td>the entry waits for the L=1 Read Response segment / the delivered Atomic Response</td></tr>
 *   <tr><td>Incoming Sends/Immediate Data delivered in order, after DDP delivery [RDMAP-23, EXT-07]</td>
 *       <td>receive completions are issued from DDP's in-order delivery callback only</td></tr>
 *   <tr><td>Read/Atomic Requests processed after DDP delivery, in order [RDMAP-24, EXT-12]</td>
 *       <td>validated and queued in DDP's delivery callback; one FIFO for both kinds</td></tr>
 *   <tr><td>Read Responses (and Atomic Responses) in request order [RDMAP-26, EXT-11]</td>
 *       <td>the responder answers its FIFO head to completion before the next</td></tr>
 *   <tr><td>Send → Read / Send → Atomic: response generated after the Send completed remotely</td>
 *       <td>at the responder the Send is delivered (DDP order) before the request is even processed</td></tr>
 *   <tr><td>Write → Send / Write → Read / Write → Atomic: Write placed first</td>
 *       <td>in-order LLP and in-order processing: the Write's segments are placed before later
 *       messages are looked at</td></tr>
 *   <tr><td>Read → Read, Read → Atomic, Atomic → Read, Atomic → Atomic</td>
 *       <td>one responder FIFO; an atomic executes when its response is generated, i.e. after every
 *       earlier response was generated</td></tr>
 *   <tr><td>Read/Atomic → later Send/Write MAY be placed before the response is generated</td>
 *       <td>allowed, not prevented; a ULP that needs the order sets {@code fence} on the later
 *       operation, which then waits for every earlier Read/Atomic to complete</td></tr>
 *   <tr><td>ORD / IRD never exceeded [RDMAP-16]</td>
 *       <td>a Read/Atomic does not start while ORD are outstanding (the queue stalls behind it); exactly
 *       IRD QN-1 buffers are posted and re-posted only once a response is out, so the (IRD+1)-th request
 *       meets DDP's "no buffer" error</td></tr>
 *   <tr><td>At most one Terminate, nothing after it [RDMAP-19]; first error wins [RDMAP-30]</td>
 *       <td>the stream leaves OPERATIONAL on the first error; the Terminate is the next message and
 *       DDP's sender is shut down after it</td></tr>
 * </table>
 */
package org.iwarp4j.rdmap.stream;
