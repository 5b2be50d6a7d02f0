import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.lang.reflect.Method;
import java.util.Arrays;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs one Jazzer {@code @FuzzTest} method through the JUnit platform, as surefire would, for
 * {@code scripts/fuzz.sh} (run in source-file mode: {@code java -cp CP scripts/FuzzRunner.java}).
 *
 * <p>Usage: {@code FuzzRunner CLASS METHOD SECONDS}. With {@code JAZZER_FUZZ=1} Jazzer fuzzes for SECONDS
 * (its {@code -max_total_time}, overriding the annotation); without, it replays the corpus. Exit status 0
 * if the test passed, 1 if it failed (a finding, a leak), 2 if it could not be found.
 */
public final class FuzzRunner {

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: FuzzRunner CLASS METHOD SECONDS");
            System.exit(2);
        }
        Class<?> type = Class.forName(args[0]);
        Method method = Arrays.stream(type.getDeclaredMethods())
                .filter(m -> m.getName().equals(args[1]))
                .findFirst()
                .orElse(null);
        if (method == null) {
            System.err.println("FuzzRunner: no method " + args[1] + " in " + args[0]);
            System.exit(2);
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectMethod(type, method))
                // Jazzer appends these to libFuzzer's arguments (arg.0 is argv[0]); libFuzzer takes the last
                // of repeated flags, so this overrides the annotation's maxDuration.
                .configurationParameter("jazzer.internal.arg.0", "fuzz")
                .configurationParameter("jazzer.internal.arg.1", "-max_total_time=" + Integer.parseInt(args[2]))
                .configurationParameter("jazzer.internal.arg.2", "-print_final_stats=1")
                // The targets' own checking code is not what is fuzzed: left uninstrumented, it costs no call into
                // Jazzer per comparison and adds no coverage of its own. The testkit (the leak-checking allocator,
                // the leak detector) and TinyJson, the explain targets' JSON parser, which reads every character of
                // every explanation: 23% of anyOctetsAreExplained's samples.
                .configurationParameter("jazzer.instrumentation_excludes",
                        "org.iwarp4j.testkit.**:org.iwarp4j.tools.report.TinyJson")
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();
        summary.getFailures().forEach(f -> {
            System.err.println("FuzzRunner: FAILED " + f.getTestIdentifier().getDisplayName());
            f.getException().printStackTrace();
        });
        long found = summary.getTestsFoundCount();
        System.err.printf("FuzzRunner: %d found, %d succeeded, %d failed%n",
                found, summary.getTestsSucceededCount(), summary.getTotalFailureCount());
        System.exit(found == 0 ? 2 : summary.getTotalFailureCount() == 0 ? 0 : 1);
    }
}
