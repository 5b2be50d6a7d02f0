package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.iwarp4j.tools.cli.StackSettings;
import org.iwarp4j.tools.cli.WireOptions;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.JsonWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link PerfReport}: a client run's lines as they come, then at its end their JSON, kept and written. */
class PerfReportTest {

    @TempDir
    Path dir;

    @Test
    void anEndedReportHoldsItsResultsAndTheJsonItWrote() throws IOException {
        Path file = dir.resolve("details.json");
        PerfConfig config = new PerfConfig(PerfVerb.WRITE, false, false, false, List.of(64, 4096), 1000, 0, 0, 128,
                512, false, null, false, new WireOptions(), true, 1, false, StackSettings.DEFAULTS, false, file,
                PerftestFormat.Style.V4_5);
        StringWriter text = new StringWriter();
        PerfReport report = new PerfReport(new PrintWriter(text), config);
        PerfResult small = new PerfResult(64, 1000, 2e8, 1e8, 1e8 / 64, null);
        PerfResult large = new PerfResult(4096, 1000, 4e9, 3e9, 3e9 / 4096, null);
        report.line(small);
        report.line(large);
        assertThat(report.results()).containsExactly(small, large);
        assertThat(report.json()).isNull();
        assertThat(file).doesNotExist();
        assertThat(text.toString()).contains(PerfReport.format(small, config), PerfReport.format(large, config));

        report.end(List.of(" remote address  : 127.0.0.1"));
        Json.Obj json = report.json();
        assertThat(json.get("test")).isEqualTo(Json.str("RDMA_Write BW Test"));
        assertThat(json.get("parameters")).isEqualTo(Json.arr(List.of(Json.str("remote address  : 127.0.0.1"))));
        assertThat(((Json.Arr) json.get("results")).items()).hasSize(2);
        assertThat(Files.readString(file)).isEqualTo(JsonWriter.write(json) + "\n");
        assertThat(report.results()).containsExactly(small, large);
    }
}
