package org.iwarp4j.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clean-up of {@link HeadlessChromium}, without a browser: a browser's children die with it, and a profile that
 * still changes while it is deleted is deleted without an error.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HeadlessChromiumTest {

    @TempDir
    Path dir;

    @Test
    void stoppingABrowserStopsTheProcessesItStarted() throws Exception {
        Process browser = new ProcessBuilder("sh", "-c", "sleep 600 & sleep 600 & wait").start();
        List<ProcessHandle> children = List.of();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (children.size() < 2 && System.nanoTime() < deadline) {
            children = browser.descendants().toList();
            Thread.sleep(10);
        }
        assertThat(children).as("the shell's two sleeps").hasSize(2);

        HeadlessChromium.stop(browser);

        assertThat(browser.isAlive()).isFalse();
        assertThat(children).noneMatch(ProcessHandle::isAlive);
    }

    @Test
    void aProfileThatChangesWhileItIsDeletedIsDeletedWithoutAnError() throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        for (int round = 0; round < 50; round++) {
            Path profile = Files.createDirectories(dir.resolve("profile-" + round + "/Default"));
            for (int i = 0; i < 200; i++) {
                Files.writeString(profile.resolve("file-" + i), "x");
            }
            // As chromium does: write a temporary file, rename it into place, again and again.
            Thread writer = new Thread(() -> {
                for (int i = 0; writing.get(); i++) {
                    try {
                        Path tmp = profile.resolve(".State." + i);
                        Files.writeString(tmp, "x");
                        Files.move(tmp, profile.resolve("State"), StandardCopyOption.REPLACE_EXISTING);
                    } catch (Exception e) {
                        return; // the directory is gone
                    }
                }
            });
            writer.start();
            try {
                assertThatCode(() -> HeadlessChromium.deleteTree(profile.getParent())).doesNotThrowAnyException();
            } finally {
                writing.set(false);
                writer.join();
                writing.set(true);
            }
            HeadlessChromium.deleteTree(profile.getParent());
            assertThat(profile.getParent()).doesNotExist();
        }
    }
}
