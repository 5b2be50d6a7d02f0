package org.iwarp4j.verbs.internal;

import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.verbs.TerminateInfo;

/** RDMAP's {@link Terminate} as the API shows it ({@link TerminateInfo}). */
final class Terminates {

    private Terminates() {}

    static TerminateInfo info(TerminateInfo.Direction direction, Terminate t) {
        TerminateCause cause = t.cause();
        String description = cause != null
                ? cause.layer().displayName() + " " + cause.errorType().displayName() + ": " + cause.description()
                : "(undefined)";
        byte[] none = new byte[0];
        return new TerminateInfo(direction, t.layer(), t.errorType(), t.errorCode(), description, t.m(), t.d(), t.r(),
                t.terminatedDdpHeader() == null ? none : t.terminatedDdpHeader(),
                t.terminatedRdmaHeader() == null ? none : t.terminatedRdmaHeader());
    }

    static TerminateInfo sent(Terminate t) {
        return info(TerminateInfo.Direction.SENT, t);
    }

    static TerminateInfo withheld(Terminate t) {
        return info(TerminateInfo.Direction.WITHHELD, t);
    }

    static TerminateInfo received(Terminate t) {
        return info(TerminateInfo.Direction.RECEIVED, t);
    }
}
