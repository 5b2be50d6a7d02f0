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

    /**
     * A measurement during which the JIT's compilations took more than a quarter of it gets a note, on the notes'
     * writer and never in perftest's output; the JIT's time of each measurement is in --details and the JSON.
     */
    @Test
    void aMeasurementTheJitWorkedThroughIsNoted() throws IOException {
        PerfConfig config = new PerfConfig(PerfVerb.SEND, false, false, false, List.of(4096, 65536), 1000, 0, 0, 128,
                512, false, null, false, new WireOptions(), true, 1, false, StackSettings.DEFAULTS, true, null,
                PerftestFormat.Style.V4_5);
        StringWriter text = new StringWriter();
        StringWriter notes = new StringWriter();
        PerfReport report = new PerfReport(new PrintWriter(text), config).notesTo(new PrintWriter(notes));
        // 4,000,000 messages at 1 Mpps: 4 s measured; the JIT's compilations took 4.17 s (a starved compiler)
        PerfResult starved = new PerfResult(4096, 4_000_000, 5e9, 4.096e9, 1e6, null)
                .withCpu(List.of(new CpuUse(CpuUse.BOTH, 2_210_000_000L, 2_020_000_000L, 4096L * 4_000_000,
                        4_170_000_000L)));
        // 0.5 s of 4 s: a quiet machine two seconds after the start
        PerfResult quiet = new PerfResult(65536, 400_000, 7e9, 6.5536e9, 1e5, null)
                .withCpu(List.of(new CpuUse(CpuUse.BOTH, 6_780_000_000L, 3_570_000_000L, 65536L * 400_000,
                        500_000_000L), new CpuUse(CpuUse.SERVER, 1, 1, 1)));
        report.line(starved);
        assertThat(notes.toString()).contains("note: the JIT's compilations took 4.17 s of the 4.00 s measured at"
                + " 4096 octets").contains("-f");
        report.line(quiet);
        assertThat(notes.toString().lines()).hasSize(1);
        report.line(starved); // a sweep: noted once, counted at the end
        report.line(starved);
        assertThat(notes.toString().lines()).hasSize(1);
        assertThat(PerfReport.jitNote(quiet)).isNull();
        assertThat(PerfReport.jitNote(new PerfResult(64, 10, 1, 1, 1, null))).as("no CPU figures").isNull();
        report.end(List.of());
        assertThat(notes.toString().lines()).hasSize(2).last().isEqualTo("note: the same at 2 more sizes (--details"
                + " shows the JIT's time at each)");
        assertThat(text.toString()).doesNotContain("note:")
                .contains(" JIT compilation during the measurement at 4096 octets: 4.170 s (this process, both ends)",
                        " JIT compilation during the measurement at 65536 octets: 0.500 s (this process, both ends)");
        List<Json> results = ((Json.Arr) report.json().get("results")).items();
        List<Json> cpu = ((Json.Arr) ((Json.Obj) results.get(1)).get("cpu")).items();
        assertThat(((Json.Obj) cpu.get(0)).get("jit_s")).isEqualTo(Json.real(0.5));
        assertThat(((Json.Obj) cpu.get(1)).get("jit_s")).as("the other end's: not carried").isEqualTo(Json.Null.NULL);
    }
}
