package org.iwarp4j.verbs;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

class RemoteBufferTest {

    @Test
    void encodesAsRpingsAdvert() {
        // struct rping_rdma_info { __be64 buf; __be32 rkey; __be32 size; }
        RemoteBuffer b = new RemoteBuffer(new Stag(0x00012a07), 0x00007f0fa83cbc70L, 4096);
        assertThat(HexFormat.of().formatHex(b.encode())).isEqualTo("00007f0fa83cbc70" + "00012a07" + "00001000");
        ByteBuffer little = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN);
        little.position(2);
        b.encode(little);
        assertThat(little.position()).isEqualTo(18);
        little.position(2);
        assertThat(RemoteBuffer.decode(little)).as("network order whatever the buffer's order").isEqualTo(b);
    }

    @Test
    void decodeEncodeRoundTrips() {
        qt().forAll(integers().all(), longs().all(), longs().between(0, 0xFFFF_FFFFL)).assuming(
                (stag, to, length) -> length == 0 || Long.compareUnsigned(to + length, to) >= 0)
                .check((stag, to, length) -> {
                    RemoteBuffer b = new RemoteBuffer(new Stag(stag), to, length);
                    return RemoteBuffer.decode(b.encode()).equals(b);
                });
    }

    @Test
    void refusesWhatNoRegionCanBe() {
        assertThatIllegalArgumentException().isThrownBy(() -> new RemoteBuffer(new Stag(1), 0, 1L << 32));
        assertThatIllegalArgumentException().isThrownBy(() -> new RemoteBuffer(new Stag(1), -16, 32))
                .withMessageContaining("wraps");
        assertThatIllegalArgumentException().isThrownBy(() -> RemoteBuffer.decode(new byte[15]));
        RemoteBuffer b = new RemoteBuffer(new Stag(1), 1000, 100);
        assertThat(b.slice(10, 90)).isEqualTo(new RemoteBuffer(new Stag(1), 1010, 90));
        assertThatIllegalArgumentException().isThrownBy(() -> b.slice(10, 91)).withMessageContaining("not inside");
        assertThatIllegalArgumentException().isThrownBy(() -> b.slice(-1, 1));
        // sums that overflow a long are outside too, not a negative end that passes a "<=" check
        assertThatIllegalArgumentException().isThrownBy(() -> b.slice(Long.MAX_VALUE, 2))
                .withMessageContaining("not inside");
        assertThatIllegalArgumentException().isThrownBy(() -> b.slice(2, Long.MAX_VALUE))
                .withMessageContaining("not inside");
    }

    @Test
    void localRangesWhoseEndOverflowsALongAreRefusedWhenBuilt() {
        try (Rnic rnic = Rnic.open(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1).build())) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            MemoryRegion region = pd.allocateRegion(64, Access.LOCAL_WRITE, Access.MW_BIND);
            MemoryWindow window = pd.allocateMemoryWindow();
            assertThatIllegalArgumentException().isThrownBy(() -> new Sge(region, Long.MAX_VALUE - 1, 8))
                    .withMessageContaining("overflows");
            assertThatIllegalArgumentException().isThrownBy(() -> SendWorkRequest.BindMemoryWindow.of(1, window,
                    region, Long.MAX_VALUE - 1, 8, Access.REMOTE_READ)).withMessageContaining("overflows");
            assertThat(new Sge(region, Long.MAX_VALUE - 8, 8).offset()).as("the largest end that fits")
                    .isEqualTo(Long.MAX_VALUE - 8);
        }
    }

    @Test
    void factoriesRefuseADataLongerThanTheAdvertisedBuffer() {
        MemoryRegion local = new InlineMemory(ByteBuffer.allocate(64));
        RemoteBuffer remote = new RemoteBuffer(new Stag(0x100), 0x1000, 32);
        assertThatIllegalArgumentException().isThrownBy(() -> SendWorkRequest.RdmaWrite.of(1, local, remote))
                .withMessageContaining("64 octets does not fit the 32");
        assertThatIllegalArgumentException().isThrownBy(() -> SendWorkRequest.RdmaRead.of(1, local, remote));
        SendWorkRequest.RdmaWrite w = SendWorkRequest.RdmaWrite.of(7, local.sge(0, 32), remote);
        assertThat(w.remoteStag()).isEqualTo(remote.stag());
        assertThat(w.remoteAddress()).isEqualTo(0x1000);
        assertThat(w.flags()).containsExactly(SendFlag.SIGNALED);
        assertThat(w.withFlags(Set.of()).flags()).isEmpty();
        assertThatIllegalArgumentException().isThrownBy(() -> SendWorkRequest.AtomicFetchAdd.of(1, remote.slice(28, 4),
                1)).withMessageContaining("does not fit");
    }

    @Test
    void withersChangeOneThing() {
        RemoteBuffer word = new RemoteBuffer(new Stag(0x200), 0x2000, 8);
        SendWorkRequest.AtomicFetchAdd add = SendWorkRequest.AtomicFetchAdd.of(1, word, 5).withAddMask(1L << 31);
        assertThat(add.addMask()).isEqualTo(1L << 31);
        assertThat(add.addData()).isEqualTo(5);
        SendWorkRequest.AtomicCompareSwap cas =
                SendWorkRequest.AtomicCompareSwap.of(2, word, 7, 9).withMasks(0xFF, 0xF0);
        assertThat(List.of(cas.compareMask(), cas.swapMask(), cas.compareData(), cas.swapData()))
                .containsExactly(0xFFL, 0xF0L, 7L, 9L);
        assertThat(SendWorkRequest.AtomicCompareSwap.of(3, word, 7, 9).compareMask()).as("plain: all ones")
                .isEqualTo(-1L);
    }
}
