package org.iwarp4j.ddp.send;

/** Test-only access to {@code DdpSender.restartQueueAt}, for the 2^32 MSN wrap. */
public final class MsnWrapBridge {

    private MsnWrapBridge() {}

    public static void restartQueueAt(DdpSender sender, int qn, int msn) {
        sender.restartQueueAt(qn, msn);
    }
}
