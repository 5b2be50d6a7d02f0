package org.iwarp4j.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The soak with faults, two minutes of it: {@code scripts/soak.sh --minutes 2} with this build's class path — two
 * JVMs in a namespace pair, every operation with every octet checked, while the server is killed and restarted,
 * packets are dropped and connections reset. Passes only if the script reports no corruption, leak, hang,
 * unexpected error or growing memory, and faults really happened. Needs root, iproute2 and iptables (CI has
 * them); elsewhere it is skipped, saying so loudly.
 */
class SoakTest {

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void twoMinutesOfFaultsCorruptNothingAndLeakNothing() throws Exception {
        assumeTrue(uid() == 0, "SKIPPED LOUDLY: not root: the soak needs network namespaces and iptables; "
                + "CI runs it as root");
        assumeTrue(exit("ip", "-V") == 0, "SKIPPED LOUDLY: iproute2 (ip) is not installed");
        assumeTrue(exit("iptables", "--version") == 0, "SKIPPED LOUDLY: iptables is not installed");
        Path script = Path.of("..", "scripts", "soak.sh").toAbsolutePath().normalize();
        ProcessBuilder pb = new ProcessBuilder(script.toString(), "--minutes", "2").redirectErrorStream(true);
        pb.environment().put("SOAK_CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().put("JAVA", ProcessHandle.current().info().command().orElse("java"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        System.out.println(out);
        assertThat(p.exitValue()).as(out).isNotEqualTo(2); // 2: the script could not run here
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("soak: PASS", "soak: corruptions 0", "soak: leaks 0", "soak: hangs 0")
                .containsPattern("(?m)^soak: server_incarnations \\d+, .* corruptions 0$");
        assertThat(number(out, "soak: operations (\\d+)")).isPositive();
        assertThat(number(out, "soak: octets_verified (\\d+)")).isPositive();
        assertThat(number(out, "soak: faults (\\d+)")).as("faults injected").isGreaterThanOrEqualTo(3);
        // Each kind of fault happened and was real.
        assertThat(number(out, "(\\d+) SIGKILL and restart")).isPositive();
        assertThat(number(out, "drop phases \\((\\d+) packets dropped")).isPositive();
        assertThat(number(out, "tcp-reset phases \\((\\d+) packets answered")).isPositive();
        assertThat(number(out, "soak: server_incarnations (\\d+)")).isGreaterThan(1);
        // the first fault kills the client: a second client ran, and what the first checked counts
        assertThat(number(out, "soak: client_incarnations (\\d+)")).isGreaterThan(1);
        assertThat(number(out, "the killed ones checked at least (\\d+) operations")).isPositive();
        assertThat(out).containsPattern("(?m)^soak: client_incarnations \\d+, .* corruptions 0$");
        assertThat(out).doesNotContain("GROWING");
    }

    private static long number(String out, String regex) {
        Matcher m = Pattern.compile(regex).matcher(out);
        assertThat(m.find()).as(regex + " in\n" + out).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static int exit(String... cmd) throws Exception {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor();
        } catch (IOException e) {
            return 127;
        }
    }

    private static long uid() throws Exception {
        Process p = new ProcessBuilder("id", "-u").start();
        String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return s.isEmpty() ? -1 : Long.parseLong(s);
    }
}
