package org.iwarp4j.tools.conformance;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Every check, numbered by group in the order they run. */
final class Catalog {

    private final List<Check> checks = new ArrayList<>();
    private int group;
    private String groupTitle;
    private int number;

    private Catalog() {}

    static List<Check> all() {
        Catalog c = new Catalog();
        MpaStartupChecks.responder(c);
        MpaStartupChecks.initiator(c);
        FramingChecks.add(c);
        DdpChecks.tagged(c);
        DdpChecks.untagged(c);
        RdmapChecks.add(c);
        return Collections.unmodifiableList(c.checks);
    }

    void group(String title) {
        group++;
        groupTitle = title;
        number = 0;
    }

    /** A check in the current group: the next number. */
    Spec check(String title) {
        number++;
        return new Spec(group + "." + number, title);
    }

    /** The rest of a check's description, then its body. */
    final class Spec {
        private final String id;
        private final String title;
        private List<String> requirements = List.of();
        private String rfc = "";
        private Set<Role> roles = EnumSet.allOf(Role.class);
        private final Set<Check.Need> needs = EnumSet.noneOf(Check.Need.class);
        private String caution;
        private boolean ownStartup;

        private Spec(String id, String title) {
            this.id = id;
            this.title = title;
        }

        Spec rule(String rfcSection, String... ids) {
            rfc = rfcSection;
            requirements = List.of(ids);
            return this;
        }

        Spec role(Role r) {
            roles = EnumSet.of(r);
            return this;
        }

        Spec needs(Check.Need... n) {
            needs.addAll(List.of(n));
            return this;
        }

        Spec caution(String words) {
            caution = words;
            return this;
        }

        Spec ownStartup() {
            ownStartup = true;
            return this;
        }

        void run(Check.Body body) {
            checks.add(new Check(id, groupTitle, title, requirements, rfc, roles, needs, caution, ownStartup, body));
        }
    }
}
