package org.iwarp4j.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iwarp4j.tools.report.TinyJson;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's {@code chromium}, headless, for the tests that load the pages of {@code --html} in a real browser: a
 * screenshot ({@code --screenshot}), or a page driven over the DevTools protocol (a WebSocket from
 * {@code --remote-debugging-port=0}; {@link java.net.http.WebSocket}, no library) to click and read back.
 *
 * <p>Without the package the tests are skipped, loudly: {@link #require()} prints a line to stderr and aborts the
 * test through an assumption naming the package ({@code .ci/run} installs it, so CI runs them).
 */
public final class HeadlessChromium implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final Map<Integer, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();

    /** The chromium executable, or the test is skipped with a message naming the Debian package. */
    public static Path require() {
        for (String name : List.of("chromium", "chromium-browser")) {
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        String message = "SKIPPED: no chromium on PATH: install the Debian package `chromium` (apt-get install "
                + "chromium; .ci/run does) to run the browser tests of the --html pages";
        System.err.println("*** " + message + " ***");
        Assumptions.assumeTrue(false, message);
        throw new IllegalStateException("unreachable");
    }

    /** The flags every run needs: headless, as root in a container (no sandbox), no GPU, no first-run noise. */
    static List<String> command(Path chromium, Path profile, String... extra) {
        List<String> cmd = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
                "--user-data-dir=" + profile));
        cmd.addAll(List.of(extra));
        return cmd;
    }

    /** {@code chromium --headless --screenshot=PNG --window-size=W,H page}; the PNG's octets. */
    public static byte[] screenshot(Path page, Path png, int width, int height) throws Exception {
        Path chromium = require();
        Path profile = Files.createTempDirectory("iwarp-chromium-");
        List<String> cmd = command(chromium, profile, "--screenshot=" + png, "--window-size=" + width + "," + height,
                page.toUri().toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(profile.resolve("log").toFile())
                .start();
        try {
            assertThat(p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("chromium --screenshot finished").isTrue();
            assertThat(png).as(Files.readString(profile.resolve("log"))).exists();
            return Files.readAllBytes(png);
        } finally {
            stop(p);
            deleteTree(profile);
        }
    }

    /** Opens {@code page} in a new headless chromium driven over the DevTools protocol. */
    public static HeadlessChromium open(Path page, int width, int height) throws Exception {
        Path chromium = require();
        Path profile = Files.createTempDirectory("iwarp-chromium-");
        List<String> cmd = command(chromium, profile, "--remote-debugging-port=0", "--remote-allow-origins=*",
                "--window-size=" + width + "," + height, page.toUri().toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            String browser = devToolsUrl(p);
            URI base = URI.create(browser.replaceFirst("^ws://([^/]+)/.*$", "http://$1/"));
            HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
            String pageSocket = null;
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (pageSocket == null && System.nanoTime() < deadline) {
                String list = http.send(HttpRequest.newBuilder(base.resolve("json/list")).timeout(TIMEOUT).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                for (Object o : (List<?>) TinyJson.parse(list)) {
                    Map<?, ?> target = (Map<?, ?>) o;
                    if ("page".equals(target.get("type"))) {
                        pageSocket = (String) target.get("webSocketDebuggerUrl");
                    }
                }
                if (pageSocket == null) {
                    Thread.sleep(50);
                }
            }
            assertThat(pageSocket).as("chromium's page target").isNotNull();
            return new HeadlessChromium(p, profile, http, URI.create(pageSocket));
        } catch (Exception | AssertionError e) {
            stop(p);
            deleteTree(profile);
            throw e;
        }
    }

    private HeadlessChromium(Process process, Path profile, HttpClient http, URI page) throws Exception {
        this.process = process;
        this.profile = profile;
        this.socket = http.newWebSocketBuilder().connectTimeout(TIMEOUT).buildAsync(page, new Listener())
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Evaluates {@code expression} in the page (promises awaited); its value as JSON values (Map, List, ...). */
    public Object eval(String expression) throws Exception {
        Map<String, Object> result = call("Runtime.evaluate", "{\"expression\": " + quote(expression)
                + ", \"returnByValue\": true, \"awaitPromise\": true}");
        Map<?, ?> inner = (Map<?, ?>) result.get("result");
        assertThat(inner.get("exceptionDetails")).as("exception in the page: " + result).isNull();
        return ((Map<?, ?>) inner.get("result")).get("value");
    }

    /** Waits until {@code condition} (a JavaScript expression) is true in the page. */
    public void await(String condition) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!Boolean.TRUE.equals(eval("Boolean(" + condition + ")"))) {
            assertThat(System.nanoTime()).as("waiting for " + condition).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** A real mouse click (pressed and released, left button) at page coordinates {@code x, y}. */
    public void click(double x, double y) throws Exception {
        for (String type : List.of("mouseMoved", "mousePressed", "mouseReleased")) {
            call("Input.dispatchMouseEvent", String.format("{\"type\": \"%s\", \"x\": %.1f, \"y\": %.1f, "
                    + "\"button\": \"left\", \"buttons\": %d, \"clickCount\": %d}", type, x, y,
                    type.equals("mousePressed") ? 1 : 0, type.equals("mouseMoved") ? 0 : 1));
        }
    }

    private Map<String, Object> call(String method, String params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
        pending.put(id, answer);
        socket.sendText("{\"id\": " + id + ", \"method\": \"" + method + "\", \"params\": " + params + "}", true)
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        Map<String, Object> response = answer.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertThat(response.get("error")).as(method + ": " + response).isNull();
        return response;
    }

    @Override
    public void close() {
        try {
            socket.abort();
        } finally {
            stop(process);
            deleteTree(profile);
        }
    }

    /**
     * Kills chromium and every process it started (renderer, GPU, network service, zygote) and waits for them: killing
     * the browser alone leaves its children writing into the profile while it is deleted.
     */
    static void stop(Process browser) {
        List<ProcessHandle> all = new ArrayList<>(browser.descendants().toList());
        all.add(browser.toHandle());
        all.forEach(ProcessHandle::destroyForcibly);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                // a process still alive after 5 s: deleteTree below copes with what it still writes
            }
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                @SuppressWarnings("unchecked")
                Map<String, Object> message = (Map<String, Object>) TinyJson.parse(text.toString());
                text.setLength(0);
                if (message.get("id") instanceof Number n) {
                    CompletableFuture<Map<String, Object>> f = pending.remove(n.intValue());
                    if (f != null) {
                        f.complete(message);
                    }
                }
            }
            webSocket.request(1);
            return null;
        }
    }

    /** Reads chromium's output until it names its DevTools WebSocket (then keeps draining it in the background). */
    private static String devToolsUrl(Process p) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> url = new CompletableFuture<>();
        StringBuilder log = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        url.complete(m.group(1));
                    } else if (!url.isDone()) {
                        log.append(line).append('\n');
                    }
                }
            } catch (IOException e) {
                // chromium ended: the future below tells
            }
            url.completeExceptionally(new IllegalStateException("chromium ended without a DevTools URL:\n" + log));
        }, "chromium-output");
        reader.setDaemon(true);
        reader.start();
        return url.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return b.append('"').toString();
    }

    /**
     * Deletes a temporary profile, best effort: a file that vanishes while the tree is walked (chromium renames its
     * temporary files into place) is skipped, not an error; whatever is left behind is harmless.
     */
    static void deleteTree(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    file.toFile().delete();
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) {
                    d.toFile().delete();
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // a temporary profile left behind is harmless
        }
    }
}
