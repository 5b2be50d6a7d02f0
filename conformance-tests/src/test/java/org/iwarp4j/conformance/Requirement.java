package org.iwarp4j.conformance;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The requirement IDs of docs/protocol/requirements.md (e.g. {@code "MPA-17"}) that a test method
 * verifies. {@link RequirementCoverageTest} reads these reflectively: every MPA-nn and DDP-nn ID must be
 * cited by at least one enabled test or be listed in {@code EXCLUSIONS.md}, never both; and the test's
 * {@code @DisplayName} must name every ID it cites.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Requirement {
    /** One or more IDs, e.g. {@code {"MPA-12", "MPA-26"}}. */
    String[] value();
}
