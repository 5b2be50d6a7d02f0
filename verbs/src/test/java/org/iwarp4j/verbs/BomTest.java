package org.iwarp4j.verbs;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The BOM has no parent (so that importing it brings nothing else): its version must follow the build's. */
class BomTest {

    private static String version(String pom) {
        // the project's own version: the first <version> after the first <artifactId> outside <parent>
        String withoutParent = pom.replaceAll("(?s)<parent>.*?</parent>", "");
        Matcher m =
                Pattern.compile("<artifactId>[^<]+</artifactId>\\s*<version>([^<]+)</version>").matcher(withoutParent);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    @Test
    void theBomListsEveryLibraryAtTheBuildsVersion() throws Exception {
        String parent = Files.readString(Path.of("../pom.xml"));
        String bom = Files.readString(Path.of("../bom/pom.xml"));
        assertThat(version(bom)).isEqualTo(version(parent));
        assertThat(bom).doesNotContain("<parent>");
        for (String module : new String[] {"common", "mpa", "ddp", "rdmap", "verbs", "testkit", "tools"}) {
            assertThat(bom).as(module).contains("<artifactId>iwarp4j-" + module + "</artifactId>");
            assertThat(parent).contains("<module>" + module + "</module>");
        }
    }
}
