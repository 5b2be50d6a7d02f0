package org.iwarp4j.tools.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/conformance.md lists every check the tool has, with its number, title and rule, in order. */
class ConformanceDocsTest {

    private static final Path DOC = Path.of("..", "docs", "conformance.md");
    private static final Pattern ROW = Pattern.compile("^\\| (\\d+\\.\\d+) \\| (.+?) \\| (.+?) \\| (.+?) \\|$");

    @Test
    void theListOfChecksIsTheCatalog() throws Exception {
        List<String> documented = new ArrayList<>();
        for (String line : Files.readAllLines(DOC, StandardCharsets.UTF_8)) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                documented.add(m.group(1) + " | " + m.group(2) + " | " + m.group(3) + " | " + m.group(4));
            }
        }
        List<String> catalog = new ArrayList<>();
        for (Check c : Catalog.all()) {
            catalog.add(row(c));
        }
        assertThat(documented).as("regenerate the table with ConformanceDocsTest.main").isEqualTo(catalog);
    }

    @Test
    void everyRequirementACheckNamesExists() throws Exception {
        String requirements = Files.readString(Path.of("..", "conformance-tests", "src", "test", "resources",
                "requirements.md"), StandardCharsets.UTF_8);
        for (Check c : Catalog.all()) {
            for (String id : c.requirements()) {
                assertThat(requirements).as(c.id() + " names " + id).contains("| " + id + " |");
            }
        }
    }

    static String row(Check c) {
        String roles = c.roles().size() == 2 ? "both" : c.roles().iterator().next().name().toLowerCase();
        return c.id() + " | " + c.title().replace("|", "\\|") + " | " + c.rfc() + "; " + String.join(" ",
                c.requirements()) + " | " + roles;
    }

    /** Prints the table for docs/conformance.md. */
    public static void main(String[] args) {
        System.out.println("| ID | the peer … | rule | peer's role |");
        System.out.println("|---|---|---|---|");
        for (Check c : Catalog.all()) {
            System.out.println("| " + row(c) + " |");
        }
    }
}
