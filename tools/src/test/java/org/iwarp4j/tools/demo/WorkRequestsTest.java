package org.iwarp4j.tools.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.Stag;
import org.junit.jupiter.api.Test;

/**
 * The demo's work requests as Java: the client's and the server's RNIC each number their own STags (both tables
 * start at index 1, with random 8-bit keys), so a client region and a server region may share an STag value. The
 * names must not depend on that: the regions here share one on purpose.
 */
class WorkRequestsTest {

    /** A region of a fake RNIC: just an STag (which a fast registration may change), an address and a length. */
    private static final class Region implements MemoryRegion {
        private Stag stag;
        private final long address;
        private final long length;

        Region(Stag stag, long address, long length) {
            this.stag = stag;
            this.address = address;
            this.length = length;
        }

        @Override
        public Stag stag() {
            return stag;
        }

        @Override
        public long address() {
            return address;
        }

        @Override
        public long length() {
            return length;
        }

        @Override
        public Set<Access> access() {
            return Set.of();
        }

        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public boolean isFastRegistration() {
            return false;
        }

        @Override
        public ProtectionDomain protectionDomain() {
            throw new UnsupportedOperationException();
        }

        @Override
        public ByteBuffer buffer() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }

    private static final Stag SHARED = Stag.of(1, 0x5A);

    private final Region sink = new Region(SHARED, 0x7000_0000L, 4096);
    private final Region source = new Region(Stag.of(2, 0x11), 0x7000_2000L, 8192);
    private final Region data = new Region(SHARED, 0x5000_0000L, 4096);
    private final Region readSink = new Region(Stag.of(2, 0x11), 0x5000_2000L, 8192);
    private final Region results = new Region(Stag.of(3, 0x33), 0x5000_4000L, 16);

    private WorkRequests.Names names() {
        Map<String, MemoryRegion> server = new LinkedHashMap<>();
        server.put("sink", sink);
        server.put("source", source);
        Map<String, MemoryRegion> client = new LinkedHashMap<>();
        client.put("data", data);
        client.put("readSink", readSink);
        client.put("results", results);
        return new WorkRequests.Names(server, client);
    }

    @Test
    void aLocalSgeIsNamedByItsRegionEvenWhenAServerRegionHasTheSameStag() {
        SendWorkRequest write = SendWorkRequest.RdmaWrite.of(1, data.sge(0, 302), sink.remoteBuffer(16, 302));
        assertThat(WorkRequests.describe(write, names()))
                .isEqualTo("RdmaWrite.of(1, data.sge(0, 302), sink.remoteBuffer(16, 302))");
        SendWorkRequest read = SendWorkRequest.RdmaRead.of(2, readSink.sge(0, 4000), source.remoteBuffer());
        assertThat(WorkRequests.describe(read, names()))
                .isEqualTo("RdmaRead.of(2, readSink.sge(0, 4000), source.remoteBuffer(0, 4000))");
    }

    @Test
    void aRemoteBufferIsOneOfTheServersRegions() {
        WorkRequests.Names n = names();
        assertThat(n.remote(SHARED, sink.address() + 16, 8)).as("not the client's region of the same STag")
                .isEqualTo("sink.remoteBuffer(16, 8)");
        assertThat(n.remote(results.stag(), results.address(), 8)).as("a client region is not remote")
                .isEqualTo("new RemoteBuffer(new Stag(0x00000333), 0x50004000L, 8)");
    }

    @Test
    void theNamesSeeTheStagARegionHasNow() {
        WorkRequests.Names n = names();
        sink.stag = SHARED.withNextKey(); // what a fast registration does to a region's STag
        assertThat(n.remote(SHARED.withNextKey(), sink.address(), sink.length())).isEqualTo("sink.remoteBuffer()");
        assertThat(n.local(data.sge(8, 16))).isEqualTo("data.sge(8, 16)");
    }

    @Test
    void aRegionWithoutANameIsShownByItsStag() {
        Region other = new Region(SHARED, 0x6000_0000L, 64);
        assertThat(names().local(other.sge(0, 64))).isEqualTo("region /* STag 0x0000015a */.sge(0, 64)");
    }
}
