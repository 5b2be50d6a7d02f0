package org.iwarp4j.tools.perf;

import java.util.List;

/**
 * perftest's {@code xchg_bw_reports} on the control connection: five fields each way (size, iterations, peak,
 * average, message rate; docs/perftest-wire.md), in the unit both ends were given ({@code --report_gbits}). In a
 * unidirectional test only the client's report means anything: a perftest server never fills its own (what it
 * sends is whatever its stack held), so ours sends zeros and the client reads nothing. With {@code -b} both ends
 * fill theirs and each adds the peer's to its own ({@code print_full_bw_report} with the peer's report).
 */
final class PerftestReports {

    private final PerftestControl control;
    private final boolean gbits;

    PerftestReports(PerftestControl control, boolean gbits) {
        this.control = control;
        this.gbits = gbits;
    }

    /** The client of a unidirectional test: ours for the server's, which is not read. */
    void send(PerfResult mine) throws InterruptedException {
        swap(mine);
    }

    /** The server of a unidirectional test: zeros for the client's, as our result line (bounded). */
    PerfResult receive() throws InterruptedException {
        return fromReport(PerftestWire.BwReport.decode(swap(null)));
    }

    /** {@code -b}: ours for the peer's; our size and count with both ends' peak, average and rate added. */
    PerfResult sum(PerfResult mine) throws InterruptedException {
        PerfResult t = fromReport(PerftestWire.BwReport.decode(swap(mine)));
        return new PerfResult(mine.size(), mine.iterations(), mine.peakBytesPerSecond() + t.peakBytesPerSecond(),
                mine.avgBytesPerSecond() + t.avgBytesPerSecond(), mine.messagesPerSecond() + t.messagesPerSecond(),
                null);
    }

    /** Our report (zeros for null) for the peer's five fields, as they came. */
    private List<byte[]> swap(PerfResult mine) throws InterruptedException {
        double unit = PerfReport.unit(1, gbits);
        PerftestWire.BwReport ours = mine == null ? new PerftestWire.BwReport(0, 0, 0, 0, 0)
                : new PerftestWire.BwReport(mine.size(), mine.iterations(), mine.peakBytesPerSecond() * unit,
                mine.avgBytesPerSecond() * unit, mine.messagesPerSecond() / 1e6);
        return control.exchangeAll(ours.encode(), PerftestWire.REPORT_FIELD_LENGTH, "bandwidth report",
                PerftestControl.MESSAGE_WAIT);
    }

    /** A report as a result line: its figures as they are, in the unit both ends were given. */
    private PerfResult fromReport(PerftestWire.BwReport r) {
        double perUnit = 1 / PerfReport.unit(1, gbits);
        return new PerfResult((int) r.size(), r.iterations(), r.bwPeak() * perUnit, r.bwAvg() * perUnit,
                r.msgRateMpps() * 1e6, null);
    }
}
