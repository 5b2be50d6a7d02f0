package org.iwarp4j.tools.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.iwarp4j.tools.cli.HeadlessChromium;
import org.iwarp4j.tools.cli.ToolRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A screenshot of {@code demo --html} in headless {@code chromium} (skipped loudly without it): a PNG of the
 * window's size that shows a drawing (not pixel equality). The last one is kept as
 * {@code tools/target/demo-ladder.png}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DemoBrowserTest {

    private static final int WIDTH = 1400;
    private static final int HEIGHT = 1000;

    @TempDir
    Path dir;

    /** In each test, so that a run without chromium counts every browser test as skipped. */
    @BeforeEach
    void needsChromium() {
        HeadlessChromium.require();
    }

    @Test
    void theDemoPageRendersInChromium() throws Exception {
        Path page = dir.resolve("demo.html");
        ToolRun r = ToolRun.run("demo", "--html", page.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        Path png = Path.of("target", "demo-ladder.png").toAbsolutePath();
        Files.createDirectories(png.getParent());
        Files.deleteIfExists(png);
        byte[] octets = HeadlessChromium.screenshot(page, png, WIDTH, HEIGHT);
        assertThat(octets).startsWith(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(octets));
        assertThat(image.getWidth()).isEqualTo(WIDTH);
        assertThat(image.getHeight()).isEqualTo(HEIGHT);
        // Something is drawn: many pixels are not the white background, some of them the arrows' blue.
        int inked = 0;
        int blue = 0;
        for (int y = 0; y < HEIGHT; y += 2) {
            for (int x = 0; x < WIDTH; x += 2) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                inked += rgb != 0xffffff ? 1 : 0;
                blue += rgb == 0x1565c0 ? 1 : 0;
            }
        }
        assertThat(inked).as("non-white pixels of %d sampled", WIDTH * HEIGHT / 4).isGreaterThan(WIDTH * HEIGHT / 400);
        assertThat(blue).as("pixels of the arrows' blue").isGreaterThan(50);
    }
}
