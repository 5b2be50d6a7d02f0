package org.iwarp4j.conformance;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The coverage meta-test: every requirement of requirements.md (MPA-nn, DDP-nn, RDMAP-nn, EXT-nn) is cited by
 * an enabled test ({@link Requirement}) or excluded with a reason in {@code EXCLUSIONS.md}, never both.
 */
class RequirementCoverageTest {

    private static final Logger LOG = LoggerFactory.getLogger(RequirementCoverageTest.class);

    @Test
    @DisplayName("every requirement is cited by a test or excluded, never both")
    void everyRequirementIsCoveredOrExcluded(TestReporter reporter) {
        RequirementCatalog catalog = RequirementCatalog.load();
        RequirementScanner.Result scan = RequirementScanner.scan();
        Map<String, String> exclusions = ModuleFiles.tableRows("EXCLUSIONS.md");
        CoverageAudit audit = CoverageAudit.audit(catalog.entries().keySet(), scan.citations(), exclusions);

        Map<String, String> summary = new LinkedHashMap<>();
        summary.put("covered", audit.covered().size() + " IDs by " + scan.citingTests() + " test methods");
        summary.put("excluded (EXCLUSIONS.md)", orNone(String.join(", ", audit.excluded().keySet())));
        summary.forEach((k, v) -> {
            reporter.publishEntry(k, v);
            LOG.info("requirement coverage — {}: {}", k, v);
        });

        assertThat(scan.problems()).as("misused @Requirement annotations").isEmpty();
        assertThat(audit.problems()).as("requirement coverage").isEmpty();
        assertThat(audit.covered().size() + audit.excluded().size()).isEqualTo(catalog.entries().size());
    }

    private static String orNone(String s) {
        return s.isEmpty() ? "(none)" : s;
    }

    @Test
    @DisplayName("the audit fails uncovered, doubly-accounted and unknown IDs, of every block")
    void auditRules() {
        Set<String> catalog = Set.of("MPA-01", "MPA-02", "DDP-01", "RDMAP-01", "EXT-01");
        CoverageAudit ok = CoverageAudit.audit(catalog, Map.of("MPA-01", List.of("T#a"), "DDP-01", List.of("T#b"),
                "RDMAP-01", List.of("T#c"), "EXT-01", List.of("T#d")), Map.of("MPA-02", "out of scope"));
        assertThat(ok.problems()).isEmpty();
        assertThat(ok.covered()).containsOnlyKeys("MPA-01", "DDP-01", "RDMAP-01", "EXT-01");
        assertThat(ok.excluded()).containsOnlyKeys("MPA-02");

        CoverageAudit bad = CoverageAudit.audit(catalog,
                Map.of("MPA-01", List.of("T#a"), "MPA-99", List.of("T#c")),
                Map.of("MPA-01", "also excluded", "DDP-77", "gone"));
        assertThat(bad.problems()).anyMatch(p -> p.startsWith("MPA-01 is both cited"))
                .anyMatch(p -> p.startsWith("MPA-99 is cited") && p.contains("not in requirements.md"))
                .anyMatch(p -> p.startsWith("DDP-77 is excluded") && p.contains("not in requirements.md"))
                .anyMatch(p -> p.startsWith("MPA-02 is neither cited"))
                .anyMatch(p -> p.startsWith("DDP-01 is neither cited"))
                .anyMatch(p -> p.startsWith("RDMAP-01 is neither cited"))
                .anyMatch(p -> p.startsWith("EXT-01 is neither cited"));
    }

    @Test
    @DisplayName("a @Requirement on a non-test, a disabled test or without the ID in its display name is rejected")
    void scannerRejectsMisuse() throws NoSuchMethodException {
        assertThat(misuse("notATest")).anyMatch(p -> p.contains("is not a test method"));
        assertThat(misuse("disabled")).anyMatch(p -> p.contains("is disabled or conditional"));
        assertThat(misuse("unnamed")).anyMatch(p -> p.contains("does not name it"));
        assertThat(misuse("badId")).anyMatch(p -> p.contains("is not a requirement ID"));
        assertThat(misuse("fine")).isEmpty();
    }

    private static List<String> misuse(String method) throws NoSuchMethodException {
        var m = Examples.class.getDeclaredMethod(method);
        return RequirementScanner.misuse(Examples.class, m, m.getAnnotation(Requirement.class), method);
    }

    /** Wrong uses on purpose; inspected by {@link #scannerRejectsMisuse}, skipped by the scan, never run. */
    @RequirementScanner.NotScanned
    private static final class Examples {
        @Requirement("MPA-01")
        @DisplayName("MPA-01: x")
        void notATest() { }

        @Test
        @Disabled
        @Requirement("MPA-01")
        @DisplayName("MPA-01: x")
        void disabled() { }

        @Test
        @Requirement({"MPA-01", "MPA-02"})
        @DisplayName("MPA-01: x")
        void unnamed() { }

        @Test
        @Requirement("mpa 1")
        @DisplayName("mpa 1")
        void badId() { }

        @Test
        @Requirement("MPA-01")
        @DisplayName("MPA-01: x")
        void fine() { }
    }
}
