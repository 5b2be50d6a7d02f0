package org.iwarp4j.tools.conformance;

import java.util.List;
import java.util.Set;

/**
 * One numbered check: a scripted exchange with the peer over a fresh connection, judged against the RFC rule
 * it names.
 *
 * @param id           "group.number", e.g. {@code 4.3}
 * @param group        the group's title
 * @param title        what the peer must do, in one line
 * @param requirements requirement IDs of the rule (docs/conformance.md lists them with their RFC sections)
 * @param rfc          the RFC section(s), e.g. "RFC 5041 §7.2"
 * @param roles        the roles of the peer the check applies to
 * @param needs        what the peer's application must have given us first (an STag, a posted receive…)
 * @param caution      non-null when the check does something a production peer may not like (beyond ending
 *                     its own connection), shown by {@code --list}
 * @param ownStartup   the body runs MPA startup itself (the MPA checks); otherwise the runner establishes the
 *                     connection in the ordinary way and drives the application to meet {@code needs} first
 * @param body         the exchange and its judgement
 */
record Check(String id, String group, String title, List<String> requirements, String rfc, Set<Role> roles,
             Set<Need> needs, String caution, boolean ownStartup, Body body) {

    /** What a check needs from the peer's application protocol before it can run. */
    enum Need {
        /** A receive posted on the peer (a Send it accepts), and its size. */
        RECEIVE,
        /** An STag of the peer's with remote write access, its base TO and length. */
        WRITABLE_STAG,
        /** An STag of the peer's with remote read access, its base TO and length. */
        READABLE_STAG,
        /** Something the peer answers that shows it accepted an FPDU (the application's next message). */
        ECHO
    }

    /** The exchange: runs on a fresh connection and returns its verdict. */
    @FunctionalInterface
    interface Body {
        Verdict run(Session s) throws Exception;
    }

    /** The two-level number, for sorting: 4.10 after 4.9. */
    int[] number() {
        String[] p = id.split("\\.");
        return new int[] {Integer.parseInt(p[0]), Integer.parseInt(p[1])};
    }
}
