package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.HeadlessChromium;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page of {@code explain --html} in a real browser (Debian's headless {@code chromium}, skipped loudly without
 * it): a mouse click on an arrow opens that arrow's layers and closes the others; a URL fragment opens its entry.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExplainBrowserTest {

    @TempDir
    Path dir;

    /** In each test, so that a run without chromium counts every browser test as skipped. */
    @BeforeEach
    void needsChromium() {
        HeadlessChromium.require();
    }

    @Test
    @SuppressWarnings("unchecked")
    void clickingAnArrowOpensItsLayers() throws Exception {
        byte[] pcap = ExplainHtmlTest.bytes(ExplainHtmlTest.FUZZ + "siw-term-read-bounds.pcap");
        Path capture = ExplainRun.writeBytes(dir, pcap, ".pcap");
        Path page = dir.resolve("term.html");
        ExplainRun r = ExplainRun.run("explain", "--pcap", capture.toString(), "--html", page.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        try (HeadlessChromium chromium = HeadlessChromium.open(page, 1400, 900)) {
            chromium.await("document.readyState === 'complete' && document.documentElement.classList.contains('js')");
            assertThat(chromium.eval("document.querySelectorAll('svg.ladder .arrow').length")).isEqualTo(7L);
            assertThat(visiblePanels(chromium)).isEmpty();

            click(chromium, "a5");
            chromium.await("getComputedStyle(document.getElementById('f5')).display !== 'none'");
            assertThat(visiblePanels(chromium)).containsExactly("f5");
            assertThat(chromium.eval("document.getElementById('a5').classList.contains('selected')")).isEqualTo(true);
            assertThat(chromium.eval("location.hash")).isEqualTo("#f5");
            // RDMAP, DDP, MPA, TCP: top down, with explain's fields and RFC sections.
            assertThat((List<Object>) chromium.eval("[...document.querySelectorAll('#f5 .part > .layer > .heading')]"
                    + ".map(h => h.textContent.split('  ')[0])")).containsExactly("RDMAP", "DDP", "FPDU", "TCP");
            assertThat((String) chromium.eval("document.getElementById('f5').innerText"))
                    .contains("Terminate", "Base or bounds violation", "RFC 5040 §4.8")
                    .contains("ULPDU_Length", "RFC 5044 §4.1", "0000  00 46 41 47");
            // The Terminate's arrow is drawn red.
            assertThat(chromium.eval("getComputedStyle(document.querySelector('#a5 line')).stroke"))
                    .isEqualTo("rgb(198, 40, 40)");

            click(chromium, "a3");
            chromium.await("getComputedStyle(document.getElementById('f3')).display !== 'none'");
            assertThat(visiblePanels(chromium)).containsExactly("f3");
            assertThat((String) chromium.eval("document.getElementById('f3').innerText")).contains("Send", "MSN");

            chromium.eval("location.hash = '#f4'");
            chromium.await("getComputedStyle(document.getElementById('f4')).display !== 'none'");
            assertThat(visiblePanels(chromium)).containsExactly("f4");
        }
    }

    /** A real mouse click in the middle of the arrow's line. */
    private static void click(HeadlessChromium chromium, String arrow) throws Exception {
        chromium.eval("document.getElementById('" + arrow + "').scrollIntoView({block: 'center'})");
        List<?> at = (List<?>) chromium.eval("(() => { const r = document.querySelector('#" + arrow
                + " line').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()");
        chromium.click(((Number) at.get(0)).doubleValue(), ((Number) at.get(1)).doubleValue());
    }

    @SuppressWarnings("unchecked")
    private static List<Object> visiblePanels(HeadlessChromium chromium) throws Exception {
        return (List<Object>) chromium.eval("[...document.querySelectorAll('section.layers')]"
                + ".filter(p => getComputedStyle(p).display !== 'none').map(p => p.id)");
    }
}
