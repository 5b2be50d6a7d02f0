package org.iwarp4j.verbs.internal;

import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ListenOptions;

import java.util.OptionalInt;

/**
 * The one place where the connection manager's options become the MPA layer's configuration: the shared
 * {@link org.iwarp4j.common.MpaOptions} as they are, plus what each role negotiates.
 */
final class MpaConfigs {

    /** IRD and ORD a listener's Responder starts from before the accepting queue pair's are known. */
    private static final int LISTENER_DEPTH = 16;

    private MpaConfigs() {}

    /** An IRD or ORD as MPA reports it, negative when the frame carried none (revision 1), as a verbs value. */
    static OptionalInt depth(int value) {
        return value < 0 ? OptionalInt.empty() : OptionalInt.of(value);
    }

    /** The Initiator of a connect with {@code ird}/{@code ord}, able to raise its IRD up to {@code irdLimit}. */
    static MpaConfig initiator(ConnectOptions options, int ird, int ord, int irdLimit) {
        return MpaConfig.builder()
                .options(options.mpa())
                .ird(ird)
                .ord(ord)
                .irdLimit(Math.max(ird, irdLimit))
                .privateData(options.privateData())
                // RFC 5044 §7.1.2 rule 4 forbids the Responder's FPDUs before our first; strict unless the profile
                // says the peer sends them anyway (Linux siw).
                .rejectDataBeforeReply(!options.peerProfile().acceptFpdusBehindReply())
                .build();
    }

    /** The Responder of every connection of a listener; the user decides on each Request. */
    static MpaConfig responder(ListenOptions options, int maxIrdOrd) {
        int depth = Math.min(LISTENER_DEPTH, maxIrdOrd);
        return MpaConfig.builder()
                .options(options.mpa())
                .irdLimit(maxIrdOrd)
                .ird(depth)
                .ord(depth)
                .requiredOrd(options.requiredOrd())
                .autoAccept(false)
                .build();
    }
}
