package org.iwarp4j.examples;

import org.iwarp4j.common.RtrType;
import org.iwarp4j.verbs.AsyncEvent;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.QueuePairState;
import org.iwarp4j.verbs.TerminateException;
import org.iwarp4j.verbs.TerminateInfo;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectionLostException;
import org.iwarp4j.verbs.cm.DisconnectReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * docs/guide.md and its examples: every Java block of the guide is an excerpt of an example program (between
 * {@code // tag::name[]} and {@code // end::name[]}), every example runs over loopback and does what the guide
 * says it does, and the examples use only the public API an application uses.
 */
@Timeout(120)
class GuideTest {

    private static final Path GUIDE = Path.of("../docs/guide.md");
    private static final Path EXAMPLES = Path.of("src/main/java");
    private static final Pattern TAG = Pattern.compile("^\\s*// (tag|end)::([A-Za-z0-9_-]+)\\[]\\s*$");
    private static final Pattern JAVA_FENCE = Pattern.compile("^```java\\s*$");
    /** What an application does not use: the layers under the verbs API, Netty, the verbs' internals, the test kit. */
    private static final Pattern FORBIDDEN = Pattern.compile(
            "\\b(org\\.iwarp4j\\.(mpa|rdmap|ddp|testkit|verbs\\.internal|verbs\\.netty)|io\\.netty)\\.");

    // ------------------------------------------------------------------ the guide's blocks are excerpts

    /** A tagged region of an example: where it is and its de-indented text. */
    record Excerpt(String tag, Path file, int line, String text) {}

    /** A Java block of the guide. */
    record Block(int line, String text) {}

    static Map<String, Excerpt> excerpts() throws IOException {
        Map<String, Excerpt> byTag = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        try (Stream<Path> files = Files.walk(EXAMPLES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                Map<String, Integer> open = new LinkedHashMap<>();
                Map<String, List<String>> bodies = new HashMap<>();
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = TAG.matcher(lines.get(i));
                    if (!m.matches()) {
                        for (List<String> body : bodies.values()) {
                            body.add(lines.get(i));
                        }
                        continue;
                    }
                    String name = m.group(2);
                    String where = file + ":" + (i + 1);
                    if (m.group(1).equals("tag")) {
                        if (open.containsKey(name) || byTag.containsKey(name)) {
                            Excerpt first = byTag.get(name);
                            problems.add("tag " + name + " used twice: " + where + " and "
                                    + (first != null ? first.file() + ":" + first.line() : "an open one in this file"));
                        }
                        open.put(name, i + 1);
                        bodies.put(name, new ArrayList<>());
                    } else if (!open.containsKey(name)) {
                        problems.add("end::" + name + " without tag::" + name + " at " + where);
                    } else {
                        int start = open.remove(name);
                        byTag.putIfAbsent(name, new Excerpt(name, file, start, deindent(bodies.remove(name))));
                    }
                }
                open.forEach((name, line) -> problems.add("tag::" + name + " never ended: " + file + ":" + line));
            }
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
        return byTag;
    }

    static List<Block> javaBlocks() throws IOException {
        return javaBlocks(GUIDE);
    }

    static List<Block> javaBlocks(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!JAVA_FENCE.matcher(lines.get(i)).matches()) {
                continue;
            }
            int start = i + 1;
            List<String> body = new ArrayList<>();
            for (i++; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
                body.add(lines.get(i));
            }
            if (i == lines.size()) {
                fail("the java block at " + file + ":" + start + " never ends");
            }
            blocks.add(new Block(start, deindent(body)));
        }
        return blocks;
    }

    /** Removes the indentation all non-blank lines share, and trailing blanks. */
    static String deindent(List<String> lines) {
        int indent = lines.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        List<String> out = lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent).stripTrailing())
                .collect(Collectors.toCollection(ArrayList::new));
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        while (!out.isEmpty() && out.get(0).isEmpty()) {
            out.remove(0);
        }
        return String.join("\n", out);
    }

    @Test
    void everyJavaBlockOfTheGuideIsAnExcerptOfAnExample() throws IOException {
        Map<String, Excerpt> excerpts = excerpts();
        List<Block> blocks = javaBlocks();
        assertThat(blocks).as("java blocks in " + GUIDE).isNotEmpty();
        Map<String, Excerpt> byText = new HashMap<>();
        for (Excerpt e : excerpts.values()) {
            byText.putIfAbsent(e.text(), e);
        }
        List<String> problems = new ArrayList<>();
        Map<String, Integer> used = new LinkedHashMap<>();
        for (Block b : blocks) {
            Excerpt e = byText.get(b.text());
            if (e == null) {
                problems.add("guide.md:" + b.line() + ": this java block is no excerpt of the examples:\n"
                        + b.text().lines().limit(3).map(l -> "    " + l).collect(Collectors.joining("\n")));
            } else if (used.putIfAbsent(e.tag(), b.line()) != null) {
                problems.add("guide.md:" + b.line() + ": excerpt " + e.tag() + " used twice (also at line "
                        + used.get(e.tag()) + ")");
            }
        }
        for (Excerpt e : excerpts.values()) {
            if (!used.containsKey(e.tag())) {
                problems.add(e.file() + ":" + e.line() + ": tag " + e.tag() + " is not in the guide");
            }
        }
        assertThat(problems).as(String.join("\n", problems)).isEmpty();
    }

    @Test
    void theReadmesJavaIsAnExcerptOfAnExampleToo() throws IOException {
        Map<String, Excerpt> byText = new HashMap<>();
        for (Excerpt e : excerpts().values()) {
            byText.putIfAbsent(e.text(), e);
        }
        Path readme = Path.of("../README.md");
        List<String> lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
        int from = lines.indexOf("## Use it as a library") + 1;
        int to = from;
        while (to < lines.size() && !lines.get(to).startsWith("## ")) {
            to++;
        }
        int first = from;
        int last = to;
        List<Block> blocks = javaBlocks(readme).stream().filter(b -> b.line() > first && b.line() < last).toList();
        assertThat(blocks).as("the README's library section shows the library in Java").isNotEmpty();
        for (Block b : blocks) {
            assertThat(byText).as("README.md:" + b.line() + " is no excerpt of the examples:\n" + b.text())
                    .containsKey(b.text());
        }
    }

    @Test
    void theExamplesUseOnlyTheApiAnApplicationUses() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(EXAMPLES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    if (FORBIDDEN.matcher(lines.get(i)).find()) {
                        found.add(file + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertThat(found).as(String.join("\n", found)).isEmpty();
    }

    @Test
    void theCheckersSeeWhatTheyShould() {
        assertThat(deindent(List.of("", "    a", "      b", "", "    c", ""))).isEqualTo("a\n  b\n\nc");
        assertThat(List.of("import io.netty.buffer.ByteBuf;", "import org.iwarp4j.rdmap.stream.RdmapStream;",
                "org.iwarp4j.verbs.internal.RnicImpl rnic;",
                "import static org.iwarp4j.mpa.MpaConfig.DEFAULT_IRD_ORD;"))
                .allMatch(line -> FORBIDDEN.matcher(line).find());
        assertThat(List.of("import org.iwarp4j.verbs.Rnic;", "import org.iwarp4j.common.MpaOptions;",
                "import org.iwarp4j.verbs.cm.Connection;")).noneMatch(line -> FORBIDDEN.matcher(line).find());
        assertThat(TAG.matcher("        // tag::quick-start[]").matches()).isTrue();
        assertThat(TAG.matcher("        // tag::quick start[]").matches()).isFalse();
    }

    // ------------------------------------------------------------------ the examples do what the guide says

    @Test
    void quickStartWritesReadsSendsAndRunsAtomics() throws Exception {
        QuickStart.Result r = QuickStart.run();
        assertThat(r.client().readBack()).isEqualTo(QuickStartClient.GREETING);
        assertThat(r.client().fetchAddOriginal()).isZero();
        assertThat(r.client().compareSwapOriginal()).isEqualTo(5);
        assertThat(r.server().message()).isEqualTo(QuickStartClient.MESSAGE);
        assertThat(r.server().written()).isEqualTo(QuickStartClient.GREETING);
        assertThat(r.server().counter()).as("0 + 5, then swapped for 42").isEqualTo(42);
        assertThat(r.server().end().reason()).isEqualTo(DisconnectReason.PEER_DISCONNECT);
        assertThat(r.server().end().cause()).as("a clean end has no cause").isEmpty();
    }

    @Test
    void quickStartServerAndClientRunAsTwoProcesses() throws Exception {
        Process server = java(ProcessBuilder.Redirect.PIPE, List.of(), QuickStartServer.class.getName(), "0");
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        try {
            CompletableFuture<String> listening = CompletableFuture.supplyAsync(() -> readLine(out));
            String line = listening.get(30, TimeUnit.SECONDS);
            assertThat(line).startsWith("listening on ");
            int port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
            QuickStartClient.Result client = QuickStartClient.run(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertThat(client.readBack()).isEqualTo(QuickStartClient.GREETING);
            assertThat(client.compareSwapOriginal()).isEqualTo(5);
            assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("the server exits after one client").isTrue();
            String rest = out.lines().collect(Collectors.joining("\n")); // it has exited: its output ends
            assertThat(server.exitValue()).as(rest).isZero();
            assertThat(rest).contains("the client sent \"" + QuickStartClient.MESSAGE + "\"")
                    .contains("wrote \"" + QuickStartClient.GREETING + "\"").contains("counter at 42")
                    .contains("PEER_DISCONNECT");
        } finally {
            // Killing it first ends its output, so that a reader still blocked in readLine returns: closing the
            // reader before would wait for that reader's lock, and a hung server would hang the build.
            server.destroyForcibly();
            out.close();
        }
    }

    @Test
    void everyCompletionModelSeesItsCompletions() throws Exception {
        CompletionModels.Observed o = CompletionModels.run();
        assertThat(o.polledOctets()).as("8 Writes of 512 octets").isEqualTo(4096);
        assertThat(o.blockingPolled()).isEqualTo(1);
        assertThat(o.taken().wrId()).isEqualTo(21);
        assertThat(o.taken().status()).isEqualTo(CompletionStatus.SUCCESS);
        assertThat(o.fromChannel()).as("2 Writes and 2 receives through one channel").isEqualTo(4);
        assertThat(o.handlerCount()).isEqualTo(5);
        assertThat(o.handlerThread()).as("an event loop of the RNIC").startsWith("iwarp-");
        assertThat(o.fromFuture().wrId()).isEqualTo(50);
        assertThat(o.fromFuture().opcode()).isEqualTo(CompletionOpcode.RDMA_WRITE);
        assertThat(o.fromFuture().byteLength()).isEqualTo(64);
        assertThat(o.unsignaledWrIds()).as("only the signaled Write completed").containsExactly(100L);
        assertThat(o.freeAfterSignaled()).isEqualTo(256);
        assertThat(o.keptFull()).isEqualTo(1000);
        assertThat(o.loopThreads()).as("one event loop started and ran the handler").hasSize(1)
                .allSatisfy(t -> assertThat(t).startsWith("iwarp-"));
    }

    @Test
    void aServersSendIsHeldUntilTheClientSends() throws Exception {
        WhoSendsFirst.Observed o = WhoSendsFirst.run(false);
        assertThat(o.peerToPeer()).isFalse();
        assertThat(o.heldAfterAccept()).isTrue();
        assertThat(o.arrivedBeforeClient()).as("held for " + WhoSendsFirst.PATIENCE).isFalse();
        assertThat(o.received()).isEqualTo("the server speaks");
        assertThat(o.heldAtEnd()).isFalse();
    }

    @Test
    void peerToPeerModeLetsTheServerSendFirst() throws Exception {
        WhoSendsFirst.Observed o = WhoSendsFirst.run(true);
        assertThat(o.peerToPeer()).isTrue();
        assertThat(o.rtr()).contains(RtrType.WRITE);
        assertThat(o.arrivedBeforeClient()).as("the RTR released it").isTrue();
        assertThat(o.received()).isEqualTo("the server speaks");
        assertThat(o.heldAtEnd()).isFalse();
    }

    @Test
    void advertsTravelInPrivateDataBothWays() throws Exception {
        PrivateDataAdvert.Observed o = PrivateDataAdvert.run();
        assertThat(o.serverRead()).isEqualTo(PrivateDataAdvert.CLIENT_TEXT);
        assertThat(o.serverBuffer()).isEqualTo(PrivateDataAdvert.WRITTEN);
        assertThat(o.rejectReason()).isEqualTo("unsupported version");
        assertThat(PrivateDataAdvert.sizeLimits()).contains("509").contains("508");
    }

    @ParameterizedTest
    @ValueSource(strings = {"native", "big-endian"})
    void atomicsCountLockAndKeepTheirByteOrder(String order) throws Exception {
        ByteOrder serverOrder = order.equals("native") ? ByteOrder.nativeOrder() : ByteOrder.BIG_ENDIAN;
        Atomics.Observed o = Atomics.run(serverOrder);
        assertThat(o.atomicByteOrder()).isEqualTo(serverOrder);
        assertThat(o.firstOriginal()).isEqualTo(100);
        assertThat(o.counter()).isEqualTo(110);
        assertThat(o.lastResult()).isEqualTo(109);
        assertThat(o.counterBigEndian()).as("the same octets through a big-endian buffer")
                .isEqualTo(serverOrder == ByteOrder.BIG_ENDIAN ? 110 : Long.reverseBytes(110));
        assertThat(o.lockTaken()).isTrue();
        assertThat(o.lockTakenAgain()).isFalse();
        assertThat(o.lanes()).isEqualTo(0x0000_0002_0000_0000L);
    }

    @Test
    void aMemoryWindowOpensPartOfARegionUntilItIsRevoked() throws Exception {
        MemoryWindows.Observed o = MemoryWindows.run();
        assertThat(o.stag()).isNotEqualTo(o.firstStag());
        assertThat(o.stag().index()).as("a window keeps its index").isEqualTo(o.firstStag().index());
        assertThat(o.landed()).isEqualTo("through the window");
        assertThat(o.readBack()).isEqualTo("through the window");
        assertThat(o.invalidated()).contains(o.stag());
        assertThat(o.boundAfter()).isFalse();
        assertThat(o.staleStatus()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
    }

    @Test
    void aFullSendQueueIsBackpressure() throws Exception {
        Backpressure.Observed o = Backpressure.run();
        assertThat(o.completed()).isEqualTo(Backpressure.WRITES);
        assertThat(o.octets()).isEqualTo((long) Backpressure.WRITES * Backpressure.SIZE);
        assertThat(o.full()).as("a queue four deep fills").isPositive();
        assertThat(o.reason()).isEqualTo(VerbsException.Reason.QUEUE_FULL);
        assertThat(o.stackTraceLength()).isZero();
        assertThat(o.freeAtEnd()).isEqualTo(Backpressure.DEPTH);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void teardownCompletesEveryRequest(boolean graceful) throws Exception {
        Teardown.Observed o = Teardown.run(graceful);
        assertThat(o.writeIds()).as("in posting order")
                .isEqualTo(Stream.iterate(0L, i -> i + 1).limit(Teardown.WRITES).toList());
        int firstFlushed = o.writes().indexOf(CompletionStatus.WORK_REQUEST_FLUSHED);
        int split = firstFlushed < 0 ? o.writes().size() : firstFlushed;
        assertThat(o.writes().subList(0, split)).as(o.writes().toString())
                .allSatisfy(s -> assertThat(s).isEqualTo(CompletionStatus.SUCCESS));
        assertThat(o.writes().subList(split, o.writes().size())).as("nothing succeeds after the first flushed")
                .allSatisfy(s -> assertThat(s).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED));
        assertThat(o.receives()).hasSize(3).containsOnly(CompletionStatus.WORK_REQUEST_FLUSHED);
        if (graceful) {
            assertThat(o.clientEnd().reason()).isEqualTo(DisconnectReason.LOCAL_DISCONNECT);
            assertThat(o.serverEnd().reason()).isEqualTo(DisconnectReason.PEER_DISCONNECT);
            assertThat(o.serverEnd().cause()).isEmpty();
        } else {
            assertThat(o.clientEnd().reason()).isEqualTo(DisconnectReason.LOCAL_CLOSE);
            assertThat(o.serverEnd().reason()).isEqualTo(DisconnectReason.PEER_RESET);
            assertThat(o.serverEnd().cause()).containsInstanceOf(ConnectionLostException.class);
        }
        assertThat(o.clientEnd().cause()).isEmpty();
        assertThat(ErrorsAndTerminates.describe(o.clientEnd())).startsWith("clean end: ");
        assertThat(o.late()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
        assertThat(o.afterClose()).isEqualTo(VerbsException.Reason.WRONG_STATE);
        assertThat(o.busy()).contains("queue pair");
    }

    private static void assertTerminate(TerminateInfo t, TerminateInfo.Direction direction, int layer, int type,
                                        int code) {
        assertThat(t.direction()).as(t.toString()).isEqualTo(direction);
        assertThat(List.of(t.layer(), t.errorType(), t.errorCode())).as(t.toString())
                .containsExactly(layer, type, code);
    }

    private static TerminateInfo terminateOf(CmEvent.Disconnected end) {
        assertThat(end.cause()).as(end.toString()).containsInstanceOf(TerminateException.class);
        return ((TerminateException) end.cause().orElseThrow()).terminate();
    }

    @ParameterizedTest
    @EnumSource(ErrorsAndTerminates.Scenario.class)
    void errorsSurfaceWithTheirTerminate(ErrorsAndTerminates.Scenario scenario) throws Exception {
        ErrorsAndTerminates.Observed o = ErrorsAndTerminates.run(scenario);
        switch (scenario) {
            case READ_OUT_OF_BOUNDS -> {
                assertThat(o.refusals()).containsExactly(VerbsException.Reason.TOO_MANY_SGES,
                        VerbsException.Reason.INVALID_SGE);
                WorkCompletion read = o.failed().orElseThrow();
                assertThat(read.status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
                assertThat(read.opcode()).isEqualTo(CompletionOpcode.RDMA_READ);
                // RFC 5040 §4.8: RDMAP, Remote Protection Error, Base or bounds violation
                assertTerminate(read.terminate().orElseThrow(), TerminateInfo.Direction.RECEIVED, 0, 1, 0x01);
                assertThat(o.clientEvent().type()).isEqualTo(AsyncEvent.Type.TERMINATE_RECEIVED);
                assertThat(o.serverEvent().orElseThrow().type()).isEqualTo(AsyncEvent.Type.TERMINATE_SENT);
                assertThat(o.clientEnd().reason()).isEqualTo(DisconnectReason.TERMINATE_RECEIVED);
                assertTerminate(terminateOf(o.clientEnd()), TerminateInfo.Direction.RECEIVED, 0, 1, 0x01);
                assertThat(o.serverEnd().reason()).isEqualTo(DisconnectReason.TERMINATE_SENT);
                assertTerminate(terminateOf(o.serverEnd()), TerminateInfo.Direction.SENT, 0, 1, 0x01);
                assertThat(o.described()).startsWith("TERMINATE_RECEIVED: received 0x0/0x1/0x01 ");
            }
            case SEND_WITHOUT_RECEIVE -> {
                assertThat(o.failed().orElseThrow().status()).isIn(CompletionStatus.SUCCESS,
                        CompletionStatus.REMOTE_INVALID_REQUEST);
                // RFC 5041 §7.2: DDP, untagged buffer error, Invalid MSN - no buffer available
                assertTerminate(o.clientEvent().terminate().orElseThrow(), TerminateInfo.Direction.RECEIVED, 1, 2, 2);
                assertTerminate(o.serverEvent().orElseThrow().terminate().orElseThrow(), TerminateInfo.Direction.SENT,
                        1, 2, 2);
                assertThat(o.clientEnd().reason()).isEqualTo(DisconnectReason.TERMINATE_RECEIVED);
            }
            case COMPLETION_QUEUE_OVERFLOW -> {
                assertThat(o.clientEvent().type()).isEqualTo(AsyncEvent.Type.COMPLETION_QUEUE_OVERFLOW);
                assertThat(o.clientEnd().reason()).isEqualTo(DisconnectReason.TERMINATE_SENT);
                // RFC 5040 §4.8: RDMAP, Local Catastrophic Error
                assertTerminate(terminateOf(o.clientEnd()), TerminateInfo.Direction.SENT, 0, 0, 0);
                assertThat(o.serverEvent().orElseThrow().type()).isEqualTo(AsyncEvent.Type.TERMINATE_RECEIVED);
            }
        }
    }

    @Test
    void limitsAreQueriedAndDepthsNegotiated() throws Exception {
        Limits.Observed o = Limits.run();
        assertThat(o.rnic().name()).isEqualTo("small");
        assertThat(o.rnic().maxWorkRequests()).isEqualTo(1024);
        assertThat(o.rnic().maxIrdOrd()).isEqualTo(8);
        assertThat(o.refused()).isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED);
        assertThat(o.idle().state()).isEqualTo(QueuePairState.IDLE);
        assertThat(List.of(o.idle().ird(), o.idle().ord(), o.idle().maxSendWr())).containsExactly(4, 8, 1024);
        assertThat(o.connected().state()).isEqualTo(QueuePairState.RTS);
        assertThat(List.of(o.connected().ird(), o.connected().ord())).containsExactly(4, 8);
        assertThat(o.parameters().mpaRevision()).isEqualTo(2);
        assertThat(o.parameters().crc()).isTrue();
        assertThat(o.parameters().peerOrd()).hasValue(4);
        assertThat(o.serverOrd()).as("cut to the client's IRD").isEqualTo(4);
    }

    @Test
    void thePeerLimitsRefuseWithTheLimitNamed() throws Exception {
        PeerLimits.Observed o = PeerLimits.run();
        assertThat(o.limits().maxRegisteredBytes()).isEqualTo(64L << 20);
        assertThat(o.limits().maxPostedReceives()).isEqualTo(4096);
        assertThat(o.limits().maxStartupsInProgress()).isEqualTo(64);
        assertThat(o.limits().maxInboundReadsAndAtomics()).isEqualTo(1024);
        assertThat(o.registrationRefusal()).startsWith("LIMIT_EXCEEDED: ").contains("maxRegisteredBytes = 67108864");
        assertThat(o.connectionRefusal()).isEqualTo("iwarp4j: maxConnections = 1 reached");
        assertThat(o.responseTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(o.keepalive()).hasValueSatisfying(k -> {
            assertThat(k.idle()).isEqualTo(Duration.ofSeconds(30));
            assertThat(k.probes()).isEqualTo(4);
            assertThat(k.userTimeout()).isEqualTo(Duration.ofSeconds(20));
        });
    }

    @Test
    void theLinuxSiwSettingsConnectAndRefuseAtomics() throws Exception {
        LinuxSiwPeer.Observed o = LinuxSiwPeer.run();
        assertThat(o.parameters().mpaRevision()).isEqualTo(2);
        assertThat(o.parameters().crc()).isTrue();
        assertThat(o.parameters().txMarkers()).isFalse();
        assertThat(o.parameters().rxMarkers()).isFalse();
        assertThat(o.read()).isEqualTo(LinuxSiwPeer.TEXT);
        assertThat(o.refused()).isEqualTo(VerbsException.Reason.NEEDS_RFC7306);
    }

    @Test
    void aConnectionIsCapturedToAPcapFile(@TempDir Path dir) throws Exception {
        Path capture = dir.resolve("client.pcap");
        assertThat(ObservingTheWire.run(capture)).isEqualTo(ObservingTheWire.LINE);
        byte[] pcap = Files.readAllBytes(capture);
        assertThat(pcap).startsWith(0xa1, 0xb2, 0xc3, 0xd4); // the pcap magic, big-endian
        String octets = new String(pcap, StandardCharsets.ISO_8859_1);
        assertThat(octets).contains("MPA ID Req Frame").contains("MPA ID Rep Frame").contains(ObservingTheWire.LINE);
    }

    @Test
    void theFrameLoggersPrintEveryFrameAtDebug(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("child.log");
        Process p = java(ProcessBuilder.Redirect.to(log.toFile()),
                List.of("-Dorg.slf4j.simpleLogger.log.org.iwarp4j.frames=debug"),
                ObservingTheWire.class.getName(), dir.resolve("c.pcap").toString());
        try {
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(() -> "the child exits; its output so far:\n" + read(log))
                    .isTrue();
        } finally {
            p.destroyForcibly();
        }
        String output = read(log);
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).contains("org.iwarp4j.frames.mpa").contains(">> MPA Request Rev=2")
                .contains("<< MPA Reply Rev=2").contains("org.iwarp4j.frames.rdmap").contains(">> RDMA_WRITE stag=0x");
    }

    // ------------------------------------------------------------------ child JVMs

    /**
     * Starts {@code mainClass} in a JVM of its own with the test class path; stderr goes with stdout, to
     * {@code output}.
     */
    private static Process java(ProcessBuilder.Redirect output, List<String> jvmOptions, String mainClass,
                                String... args) throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output).start();
    }

    /** What a child wrote to {@code file} (malformed UTF-8 replaced, as a reader of its pipe would). */
    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readLine(BufferedReader in) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("listening on ")) {
                    return line;
                }
            }
            throw new IllegalStateException("the server exited without listening");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
