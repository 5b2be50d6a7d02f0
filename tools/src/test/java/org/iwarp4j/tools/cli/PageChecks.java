package org.iwarp4j.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;

/** Checks on the pages of {@code explain --html} and {@code demo --html}. */
public final class PageChecks {

    private PageChecks() {}

    /** A complete HTML document that loads nothing: no external scripts, styles, images, fonts or links. */
    public static void assertSelfContained(String html) {
        assertThat(html).startsWith("<!doctype html>");
        Parser parser = Parser.htmlParser().setTrackErrors(50);
        Document doc = Jsoup.parse(html, "", parser);
        assertThat(parser.getErrors()).as("HTML parse errors").isEmpty();
        assertThat(doc.select("[src], link, iframe, object, embed, img, base")).isEmpty();
        for (Element e : doc.select("[href], [xlink:href]")) {
            assertThat(e.attr("href") + e.attr("xlink:href")).as(e.outerHtml()).startsWith("#");
        }
        assertThat(html).doesNotContainPattern("(?i)https?://|url\\((?!#)|@import|@font-face");
        assertThat(doc.select("script")).hasSize(html.contains("div class=\"fatal\"") ? 0 : 1);
        assertThat(doc.select("style")).hasSize(1);
    }
}
