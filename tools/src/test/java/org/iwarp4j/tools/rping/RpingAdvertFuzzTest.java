package org.iwarp4j.tools.rping;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.iwarp4j.verbs.RemoteBuffer;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The rping server's reading of a client's advert (the 16-octet STag/TO/length Send, as librdmacm's
 * rping lays it out: {@code struct rping_rdma_info}) on any octets. The receive region always holds 16
 * octets (a shorter Send leaves the rest as it was), so the input is cut or zero-padded to 16.
 * {@link RpingServer#advert} either returns a buffer, which encodes back to the same 16 octets, or
 * refuses with an {@link RpingFailure} that says why; anything else would end the server with an
 * internal exception's text.
 */
class RpingAdvertFuzzTest {

    @FuzzTest
    void advert(byte[] received) {
        byte[] region = Arrays.copyOf(received, RemoteBuffer.ENCODED_LENGTH);
        RemoteBuffer b;
        try {
            b = RpingServer.advert(ByteBuffer.wrap(region));
        } catch (RpingFailure refused) {
            if (refused.getMessage() == null || refused.getMessage().isBlank()) {
                throw new AssertionError("a refusal without a reason", refused);
            }
            return;
        }
        ByteBuffer again = ByteBuffer.allocate(RemoteBuffer.ENCODED_LENGTH);
        b.encode(again);
        if (!Arrays.equals(again.array(), region)) {
            throw new AssertionError("advert " + b + " re-encodes differently");
        }
    }
}
