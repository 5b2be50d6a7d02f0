package org.iwarp4j.tools.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import org.iwarp4j.tools.perf.PerftestException;
import org.iwarp4j.tools.perf.PerftestWire;
import org.junit.jupiter.api.Test;

/**
 * {@code --app perftest}'s side of perftest 4.5+0.17's exchange against a scripted server (no sockets): the order
 * and the octets of what we send, the buffer we infer from the server's dest, what each program gives the checks,
 * and the peers we refuse.
 */
class PerftestExchangeTest {

    private static final int RKEY = 0x1b2c3d00;
    private static final long VADDR = 0x559f114ed000L;

    /** A perftest server as a script: one answer per message of ours, in turn; records what we sent. */
    private static final class ScriptedServer implements PerftestExchange.Channel {
        final Deque<byte[]> answers = new ArrayDeque<>();
        final List<byte[]> sent = new ArrayList<>();
        final List<String> what = new ArrayList<>();

        ScriptedServer(String version, int cycleBuffer, int handshakesAfter, byte[] dest) {
            answers.add(PerftestWire.version(version));
            answers.add(PerftestWire.int32(cycleBuffer));
            answers.add(PerftestWire.int32(64));
            answers.add(PerftestWire.mtu(3));
            answers.add(PerftestWire.Dest.ZERO.encode());
            answers.add(PerftestWire.Dest.ZERO.encode());
            for (int i = 0; i < handshakesAfter; i++) {
                answers.add(dest);
            }
        }

        @Override
        public void send(byte[] message, String w) {
            sent.add(message.clone());
            what.add(w);
        }

        @Override
        public byte[] receive(String w) throws IOException {
            if (answers.isEmpty()) {
                throw new IOException("the script has no answer to " + w);
            }
            return answers.poll();
        }
    }

    private static byte[] dest(int rkey, long vaddr) {
        return new PerftestWire.Dest(0, 128, 4, 0xf67ad1, rkey, vaddr, new byte[16], 0, 0).encode();
    }

    private static PerftestExchange run(ScriptedServer server, PerftestExchange.Program p, int size)
            throws IOException {
        PerftestExchange x = new PerftestExchange(server, p, size);
        x.beforeTestConnection();
        assertThat(server.sent).as("messages before the test connection").hasSize(5);
        x.afterTestConnection(4);
        return x;
    }

    @Test
    void writeBwSendsPerftestsSequenceAndNamesTheWholeRegionAroundTheServersVaddr() throws IOException {
        ScriptedServer server = new ScriptedServer("6.06", 4096, 3, dest(RKEY, VADDR));
        PerftestExchange x = run(server, PerftestExchange.Program.WRITE, 64);
        // 4 setup messages, the handshake before and the one after the test connection, 3 dests: no more
        assertThat(server.sent).hasSize(9);
        assertThat(server.answers).isEmpty();
        assertThat(new String(server.sent.get(0), 0, 4, StandardCharsets.US_ASCII))
                .isEqualTo("6.06");
        assertThat(ByteBuffer.wrap(server.sent.get(1)).getInt()).isEqualTo(4096);
        assertThat(server.sent.get(3)).containsExactly('3', 0);
        assertThat(server.sent.get(4)).containsOnly(0).hasSize(PerftestWire.DEST_LENGTH);
        assertThat(server.sent.get(5)).containsOnly(0);
        PerftestWire.Dest ours = PerftestWire.Dest.decode(server.sent.get(8));
        assertThat(ours.rkey()).isEqualTo(Session.OUR_STAG);
        assertThat(ours.vaddr()).isEqualTo(Session.OUR_ADDRESS);
        assertThat(ours.outReads()).isEqualTo(4);
        assertThat(x.peerVersion()).isEqualTo("6.06");

        Session.PeerBuffer b = x.buffer();
        assertThat(b.stag()).isEqualTo(RKEY);
        assertThat(b.to()).isEqualTo(VADDR - 4096);
        assertThat(b.length()).isEqualTo(8192);
        assertThat(b.writable()).isTrue();
        assertThat(b.readable()).as("ib_write_bw registers no remote read").isFalse();
    }

    @Test
    void theLargerCycleBufferAndALargerSizeDecideTheRegion() throws IOException {
        PerftestExchange x = run(new ScriptedServer("6.06", 16384, 3, dest(RKEY, VADDR)),
                PerftestExchange.Program.READ, 64);
        assertThat(x.cycleBuffer()).isEqualTo(16384);
        assertThat(x.buffer().to()).isEqualTo(VADDR - 16384);
        assertThat(x.buffer().length()).isEqualTo(32768);
        assertThat(x.buffer().readable()).isTrue();

        x = run(new ScriptedServer("6.06", 4096, 3, dest(RKEY, VADDR)), PerftestExchange.Program.WRITE, 65536);
        assertThat(x.buffer().to()).isEqualTo(VADDR - 65536);
        assertThat(x.buffer().length()).isEqualTo(131072);
    }

    @Test
    void sendBwGoesOneHandshakeFurtherAndGivesNoBuffer() throws IOException {
        ScriptedServer server = new ScriptedServer("6.06", 4096, 4, dest(0x99, 0x7000));
        PerftestExchange x = run(server, PerftestExchange.Program.SEND, 64);
        assertThat(server.sent).hasSize(10);
        assertThat(x.buffer()).as("its dest names the credit word").isNull();
    }

    @Test
    void sendBwsReceivesAreItsRxDepth() {
        assertThat(PerftestExchange.rxDepth(1000)).isEqualTo(512);
        assertThat(PerftestExchange.rxDepth(100)).isEqualTo(100);
        assertThat(PerftestExchange.rxDepth(5)).isEqualTo(6);
    }

    @Test
    void aLaterPerftestIsRefusedByItsVersionBeforeAnythingElse() {
        ScriptedServer server = new ScriptedServer("6.29", 4096, 3, dest(RKEY, VADDR));
        assertThatThrownBy(() -> new PerftestExchange(server, PerftestExchange.Program.WRITE, 64)
                .beforeTestConnection()).isInstanceOf(PerftestException.class).hasMessageContaining("6.29");
        assertThat(server.sent).hasSize(1);
    }

    @Test
    void boundsWhatTheServerSends() {
        // a cycle buffer of 2^31 - 1 octets would size the region: refused by the codec
        ScriptedServer huge = new ScriptedServer("6.06", Integer.MAX_VALUE, 3, dest(RKEY, VADDR));
        assertThatThrownBy(() -> new PerftestExchange(huge, PerftestExchange.Program.WRITE, 64)
                .beforeTestConnection()).isInstanceOf(PerftestException.class).hasMessageContaining("cycle buffer");
        // upstream 6.x's 64-octet dest
        ScriptedServer later = new ScriptedServer("6.06", 4096, 3, Arrays.copyOf(dest(RKEY, VADDR), 64));
        assertThatThrownBy(() -> run(later, PerftestExchange.Program.WRITE, 64))
                .isInstanceOf(PerftestException.class).hasMessageContaining("64 octets");
        // a dest that names nothing
        ScriptedServer none = new ScriptedServer("6.06", 4096, 3, dest(0, 0));
        assertThatThrownBy(() -> run(none, PerftestExchange.Program.WRITE, 64)).isInstanceOf(IOException.class)
                .hasMessageContaining("names no buffer");
    }

    @Test
    void eachProgramMeetsItsOwnNeedsAndSaysWhyNotTheOthers() throws IOException {
        for (PerftestExchange.Program p : PerftestExchange.Program.values()) {
            Options o = new Options(App.PERFTEST, true, 4, 4, 64, 5000, 2000, 30000, 50, p, 64, 1000);
            PerftestExchange x = run(new ScriptedServer("6.06", 4096, p == PerftestExchange.Program.SEND ? 4 : 3,
                    dest(RKEY, VADDR)), p, 64);
            Session s = new Session(Role.RESPONDER, o, null);
            s.perftest = x;
            String receive = s.prepare(EnumSet.of(Check.Need.RECEIVE));
            Session w = new Session(Role.RESPONDER, o, null);
            w.perftest = x;
            String write = w.prepare(EnumSet.of(Check.Need.WRITABLE_STAG));
            Session r = new Session(Role.RESPONDER, o, null);
            r.perftest = x;
            String read = r.prepare(EnumSet.of(Check.Need.READABLE_STAG));
            switch (p) {
                case WRITE -> {
                    assertThat(receive).contains("ib_write_bw posts no receive");
                    assertThat(write).isNull();
                    assertThat(w.buffer.stag()).isEqualTo(RKEY);
                    assertThat(read).contains("no remote read access");
                }
                case READ -> {
                    assertThat(receive).contains("ib_read_bw posts no receive");
                    assertThat(write).isNull();
                    assertThat(read).isNull();
                    assertThat(r.buffer.readable()).isTrue();
                }
                case SEND -> {
                    assertThat(receive).isNull();
                    assertThat(s.receives).isEqualTo(512);
                    assertThat(s.receiveSize).isEqualTo(64);
                    assertThat(write).contains("credit word");
                    assertThat(read).contains("credit word");
                }
                default -> throw new AssertionError(p);
            }
        }
        Options big = new Options(App.PERFTEST, true, 4, 4, 64, 5000, 2000, 30000, 50,
                PerftestExchange.Program.SEND, 65536, 1000);
        Session s = new Session(Role.RESPONDER, big, null);
        s.perftest = new PerftestExchange(new ScriptedServer("6.06", 4096, 0, null), PerftestExchange.Program.SEND,
                65536);
        assertThat(s.prepare(EnumSet.of(Check.Need.RECEIVE))).contains("-s 16384 or less");
        Session initiator = new Session(Role.INITIATOR, big, null);
        assertThat(initiator.prepare(EnumSet.of(Check.Need.RECEIVE))).contains("not supported");
    }
}
