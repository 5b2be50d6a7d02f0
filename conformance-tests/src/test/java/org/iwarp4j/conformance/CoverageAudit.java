package org.iwarp4j.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The rules of requirement coverage, as a pure function so that it can be tested on small inputs:
 *
 * <ul>
 *   <li>every ID of a <em>checked</em> block (MPA and DDP; RDMAP and EXT too once {@code rdmapCovered})
 *       is cited by at least one test or excluded in {@code EXCLUSIONS.md} — never both;</li>
 *   <li>every cited, excluded or pending ID exists in the catalogue;</li>
 *   <li>an ID in {@code PENDING-RDMAP.md} (partly covered here, the rest left to RDMAP/verbs) is cited by a
 *       test and not excluded;</li>
 *   <li>IDs of unchecked blocks are reported as pending, not as failures.</li>
 * </ul>
 *
 * @param problems   everything that fails the audit
 * @param covered    checked IDs with the tests that cite them
 * @param excluded   checked IDs excluded, with the reason
 * @param pending    IDs of unchecked blocks (RDMAP, EXT) not covered yet
 */
public record CoverageAudit(List<String> problems, Map<String, List<String>> covered, Map<String, String> excluded,
                           Set<String> pending) {

    /**
     * @param catalog      every requirement ID
     * @param citations    ID → names of the tests citing it
     * @param exclusions   ID → reason, from EXCLUSIONS.md
     * @param partial      IDs listed in PENDING-RDMAP.md
     * @param rdmapCovered whether RDMAP and EXT IDs are held to the same rule as MPA and DDP
     */
    public static CoverageAudit audit(Set<String> catalog, Map<String, List<String>> citations,
                                      Map<String, String> exclusions, Set<String> partial, boolean rdmapCovered) {
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> covered = new TreeMap<>();
        Map<String, String> excluded = new TreeMap<>();
        Set<String> pending = new TreeSet<>();
        for (String id : citations.keySet()) {
            if (!catalog.contains(id)) {
                problems.add(id + " is cited by " + citations.get(id) + " but is not in requirements.md");
            }
        }
        for (String id : exclusions.keySet()) {
            if (!catalog.contains(id)) {
                problems.add(id + " is excluded in EXCLUSIONS.md but is not in requirements.md");
            }
        }
        for (String id : partial) {
            if (!catalog.contains(id)) {
                problems.add(id + " is listed in PENDING-RDMAP.md but is not in requirements.md");
            } else if (!citations.containsKey(id)) {
                problems.add(id + " is listed in PENDING-RDMAP.md (partly covered) but no test cites it");
            }
            if (exclusions.containsKey(id)) {
                problems.add(id + " is both partly covered (PENDING-RDMAP.md) and excluded (EXCLUSIONS.md)");
            }
        }
        for (String id : catalog) {
            boolean checked = checked(id, rdmapCovered);
            boolean cited = citations.containsKey(id);
            boolean isExcluded = exclusions.containsKey(id);
            if (cited && isExcluded) {
                problems.add(id + " is both cited by " + citations.get(id) + " and excluded (" + exclusions.get(id) + ")");
            } else if (cited) {
                covered.put(id, citations.get(id));
            } else if (isExcluded) {
                excluded.put(id, exclusions.get(id));
            } else if (checked) {
                problems.add(id + " is neither cited by a test nor excluded in EXCLUSIONS.md");
            } else {
                pending.add(id);
            }
        }
        return new CoverageAudit(List.copyOf(problems), covered, excluded, pending);
    }

    /** MPA and DDP are always checked; RDMAP and EXT once the flag says so. */
    static boolean checked(String id, boolean rdmapCovered) {
        return id.startsWith("MPA-") || id.startsWith("DDP-") || rdmapCovered;
    }
}
