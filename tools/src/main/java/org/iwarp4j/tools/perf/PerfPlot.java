package org.iwarp4j.tools.perf;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.TickUnits;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.text.TextUtils;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * {@code iwarp perf --plot FILE.svg}: the results as charts, drawn with JFreeChart into one self-contained SVG
 * document with JFreeSVG (text as SVG text, no external references). A bandwidth run gives two charts, one above
 * the other: bandwidth against message size and message rate against message size, both on a log2 size axis. A
 * latency run gives the percentile chart of HdrHistogram's plots: latency against {@code 1/(1-p)} on a log axis,
 * labelled with percentiles (90 %, 99 %, 99.9 % ...), so the tail gets as much room as the median.
 * Each {@link Series} is one line: the iWARP test and the TCP baseline measured in the same invocation.
 */
final class PerfPlot {

    static final String SIZE_AXIS = "message size [octets]";
    static final String MESSAGE_RATE_AXIS = "message rate [Mpps]";
    static final String PERCENTILE_AXIS = "percentile (log scale of 1/(1-p))";
    static final String LATENCY_AXIS = "latency [usec] (log2 scale)";
    private static final int WIDTH = 900;
    private static final int HEIGHT = 520;
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0x9467bd)};

    static {
        // charts need fonts, not a display: never try to open one
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private PerfPlot() {}

    /** One line of a chart: its legend and the results of one test, in order of size. */
    record Series(String name, List<PerfResult> results) {}

    static String bandwidthAxis(boolean gbits) {
        return gbits ? "bandwidth [Gb/sec]" : "bandwidth [MB/sec]";
    }

    /** Writes the charts of {@code series} to {@code file}. */
    static void write(Path file, String title, String subtitle, boolean latency, boolean gbits, List<Series> series)
            throws IOException {
        String svg = latency ? percentileSvg(title, subtitle, series) : sizeSweepSvg(title, subtitle, gbits, series);
        Files.writeString(file, svg, StandardCharsets.UTF_8);
    }

    /** Bandwidth and message rate against message size, one chart above the other, as an SVG document. */
    static String sizeSweepSvg(String title, String subtitle, boolean gbits, List<Series> series) {
        XYSeriesCollection bandwidth = new XYSeriesCollection();
        XYSeriesCollection rate = new XYSeriesCollection();
        for (Series s : series) {
            XYSeries bw = new XYSeries(s.name(), false, true);
            XYSeries mpps = new XYSeries(s.name(), false, true);
            for (PerfResult r : s.results()) {
                double x = log2(r.size());
                bw.add(x, PerfReport.unit(r.avgBytesPerSecond(), gbits));
                if (r.messagesPerSecond() > 0) {
                    mpps.add(x, Math.log10(r.messagesPerSecond() / 1e6));
                }
            }
            bandwidth.addSeries(bw);
            rate.addSeries(mpps);
        }
        NumberAxis bwAxis = new NumberAxis(bandwidthAxis(gbits));
        bwAxis.setAutoRangeIncludesZero(true);
        JFreeChart top = chart(title + ": bandwidth", subtitle, sizeAxis(), bwAxis, bandwidth);
        JFreeChart bottom = chart(title + ": message rate", subtitle, sizeAxis(), logAxis(MESSAGE_RATE_AXIS, 10,
                new Decimal()), rate);
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, 2 * HEIGHT);
        top.draw(g, new Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
        bottom.draw(g, new Rectangle2D.Double(0, HEIGHT, WIDTH, HEIGHT));
        return document(g);
    }

    /** Latency against percentile, {@code 1/(1-p)} on a log axis, as an SVG document. */
    static String percentileSvg(String title, String subtitle, List<Series> series) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (Series s : series) {
            XYSeries line = new XYSeries(s.name(), false, true);
            for (PerfResult r : s.results()) {
                LatencyMeter.PercentileCurve c = r.latency() == null ? null : r.latency().curve();
                for (int i = 0; c != null && i < c.percentiles().length; i++) {
                    line.add(Math.log10(1 / (1 - c.percentiles()[i] / 100)), log2(Math.max(c.micros()[i], 1e-3)));
                }
            }
            data.addSeries(line);
        }
        NumberAxis x = logAxis(PERCENTILE_AXIS, 10, new Percentile());
        x.setAutoRangeIncludesZero(true);
        JFreeChart chart = chart(title + ": latency by percentile", subtitle, x, logAxis(LATENCY_AXIS, 2,
                new Decimal()), data);
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, HEIGHT);
        chart.draw(g, new Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
        return document(g);
    }

    /**
     * A standalone SVG document: the XML declaration and the {@code svg} element, without JFreeSVG's DOCTYPE (whose
     * external DTD an XML parser would try to fetch).
     */
    private static String document(SVGGraphics2D g) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + g.getSVGElement() + "\n";
    }

    /**
     * The size axis: log2 of the size, one tick per power of two, labelled with the size. (JFreeChart's LogAxis
     * draws its labels as attributed strings, which JFreeSVG turns into outlines; a NumberAxis over the logarithm
     * keeps every label SVG text.)
     */
    private static NumberAxis sizeAxis() {
        NumberAxis x = new NumberAxis(SIZE_AXIS);
        x.setAutoRangeIncludesZero(false);
        x.setTickUnit(new NumberTickUnit(1, new Power(2, new BinarySize())));
        x.setVerticalTickLabels(true);
        x.setLowerMargin(0.02); // less than half a power of two: no tick beyond the sizes measured
        x.setUpperMargin(0.02);
        return x;
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    /**
     * An axis over the logarithm to {@code base} of the values, a tick at every power of the base (or every
     * second, third ... as room requires), labelled with the value by {@code format}; at least two ticks.
     */
    private static NumberAxis logAxis(String label, double base, LabelFormat format) {
        NumberAxis axis = new NumberAxis(label);
        axis.setAutoRangeIncludesZero(false);
        axis.setAutoRangeMinimumSize(1.5);
        TickUnits units = new TickUnits();
        for (int step : new int[] {1, 2, 3, 4, 5, 10}) {
            units.add(new NumberTickUnit(step, new Power(base, format)));
        }
        axis.setStandardTickUnits(units);
        return axis;
    }

    private static JFreeChart chart(String title, String subtitle, ValueAxis x, ValueAxis y,
                                    XYSeriesCollection data) {
        // rotated labels as SVG text, not TextLayout outlines
        TextUtils.setUseDrawRotatedStringWorkaround(false);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            renderer.setSeriesPaint(i, COLORS[i % COLORS.length]);
            renderer.setSeriesStroke(i, new BasicStroke(2f));
        }
        XYPlot plot = new XYPlot(data, x, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        chart.setPadding(new RectangleInsets(10, 10, 10, 10));
        chart.addSubtitle(new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
        return chart;
    }

    /** Labels a logarithm by its value, {@code base^v}, in {@code format}. */
    static final class Power extends LabelFormat {
        private static final long serialVersionUID = 1L;
        private final double base;
        private final LabelFormat format;

        Power(double base, LabelFormat format) {
            this.base = base;
            this.format = format;
        }

        @Override
        String label(double v) {
            return format.label(Math.pow(base, v));
        }
    }

    /** Tick labels of octets in binary multiples: 512, 1K, 64K, 8M. */
    static final class BinarySize extends LabelFormat {
        private static final long serialVersionUID = 1L;

        @Override
        String label(double v) {
            long n = Math.round(v);
            if (n >= 1 << 20 && n % (1 << 20) == 0) {
                return n / (1 << 20) + "M";
            }
            if (n >= 1 << 10 && n % (1 << 10) == 0) {
                return n / (1 << 10) + "K";
            }
            return Long.toString(n);
        }
    }

    /** Tick labels of {@code 1/(1-p)} as the percentile p: 1 is 0 %, 10 is 90 %, 1000 is 99.9 %. */
    static final class Percentile extends LabelFormat {
        private static final long serialVersionUID = 1L;

        @Override
        String label(double v) {
            double p = 100 * (1 - 1 / v);
            String s = String.format(Locale.ROOT, "%.6f", p).replaceAll("0+$", "").replaceAll("\\.$", "");
            return s + "%";
        }
    }

    /** Plain decimals for log-axis ticks (0.001, 0.1, 10, 1000) instead of powers. */
    static final class Decimal extends LabelFormat {
        private static final long serialVersionUID = 1L;

        @Override
        String label(double v) {
            String s = String.format(Locale.ROOT, "%.6f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
            return s.isEmpty() ? "0" : s;
        }
    }

    /** A {@link NumberFormat} for tick labels only: formatting, no parsing. */
    abstract static class LabelFormat extends NumberFormat {
        private static final long serialVersionUID = 1L;

        abstract String label(double value);

        @Override
        public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
            return to.append(label(number));
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, FieldPosition pos) {
            return to.append(label(number));
        }

        @Override
        public Number parse(String source, ParsePosition pos) {
            return null;
        }
    }
}
