package org.iwarp4j.tools.explain;

import java.util.List;
import org.iwarp4j.tools.report.Layer;

/**
 * What {@code explain} found: the decoded frames (and error entries) in output order, in sections
 * (one per captured connection), plus the text around them for people.
 *
 * @param sections the entries, one layer per frame or error, with the lines introducing each section
 * @param errors   number of error entries
 * @param preamble lines shown to people before the frames (what was decoded, with which settings)
 * @param warnings problems with the input that are not protocol errors (skipped packets, file cut short)
 * @param summary  the closing line for people
 */
public record Explanation(List<Explainer.Section> sections, int errors, List<String> preamble, List<String> warnings,
        String summary) {

    public Explanation {
        sections = List.copyOf(sections);
        preamble = List.copyOf(preamble);
        warnings = List.copyOf(warnings);
    }

    /** Every entry of every section, in order. */
    public List<Layer> frames() {
        return sections.stream().flatMap(s -> s.frames().stream()).toList();
    }
}
