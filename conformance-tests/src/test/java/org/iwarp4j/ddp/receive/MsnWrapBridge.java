package org.iwarp4j.ddp.receive;

/**
 * Test-only access to {@code DdpReceiver.restartQueueAt} (package-private: no product code may restart a
 * queue's MSN) so that conformance tests can reach the 2^32 MSN wrap without 2^32 messages.
 */
public final class MsnWrapBridge {

    private MsnWrapBridge() {}

    public static void restartQueueAt(DdpReceiver receiver, int qn, int firstMsn) {
        receiver.restartQueueAt(qn, firstMsn);
    }
}
