package org.iwarp4j.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rules of requirement coverage, as a pure function so that it can be tested on small inputs: every ID of
 * the catalogue (MPA, DDP, RDMAP and EXT alike) is cited by at least one test or excluded in
 * {@code EXCLUSIONS.md}, never both; every cited or excluded ID exists in the catalogue.
 *
 * @param problems   everything that fails the audit
 * @param covered    IDs with the tests that cite them
 * @param excluded   IDs excluded, with the reason
 */
public record CoverageAudit(List<String> problems, Map<String, List<String>> covered, Map<String, String> excluded) {

    /**
     * @param catalog      every requirement ID
     * @param citations    ID → names of the tests citing it
     * @param exclusions   ID → reason, from EXCLUSIONS.md
     */
    public static CoverageAudit audit(Set<String> catalog, Map<String, List<String>> citations,
                                      Map<String, String> exclusions) {
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> covered = new TreeMap<>();
        Map<String, String> excluded = new TreeMap<>();
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
        for (String id : catalog) {
            boolean cited = citations.containsKey(id);
            boolean isExcluded = exclusions.containsKey(id);
            if (cited && isExcluded) {
                problems.add(id + " is both cited by " + citations.get(id) + " and excluded (" + exclusions.get(id)
                        + ")");
            } else if (cited) {
                covered.put(id, citations.get(id));
            } else if (isExcluded) {
                excluded.put(id, exclusions.get(id));
            } else {
                problems.add(id + " is neither cited by a test nor excluded in EXCLUSIONS.md");
            }
        }
        return new CoverageAudit(List.copyOf(problems), covered, excluded);
    }
}
