package org.iwarp4j.tools.conformance;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.iwarp4j.oracle.Hex;
import org.iwarp4j.tools.explain.Explainer;
import org.iwarp4j.tools.explain.Explanation;
import org.iwarp4j.tools.explain.HexStream;
import org.iwarp4j.tools.report.HumanRenderer;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.JsonWriter;

/** The three ways a run is reported: text in the style of h2spec, JSON, JUnit XML. */
final class Reports {

    private static final int SHOWN_OCTETS = 96;

    private Reports() {}

    static Map<Verdict.Status, Integer> totals(List<Runner.Result> results) {
        Map<Verdict.Status, Integer> t = new EnumMap<>(Verdict.Status.class);
        for (Verdict.Status s : Verdict.Status.values()) {
            t.put(s, 0);
        }
        results.forEach(r -> t.merge(r.verdict().status(), 1, Integer::sum));
        return t;
    }

    // ------------------------------------------------------------------ text

    static void heading(PrintWriter out, String group) {
        out.println();
        out.println(group);
    }

    /** One check as it finishes: a line, and for a failure what was expected, what came, and the octets. */
    static void line(PrintWriter out, Runner.Result r, Profile profile, boolean verbose) {
        Check c = r.check();
        Verdict v = r.verdict();
        String mark = switch (v.status()) {
            case PASSED -> "  ✔";
            case FAILED -> "  ✘";
            case KNOWN -> "  ~";
            case SKIPPED -> "  -";
        };
        out.printf("%s %s %s%n", mark, c.id(), c.title());
        switch (v.status()) {
            case SKIPPED -> out.printf("      skipped: %s%n", v.actual());
            case KNOWN -> {
                out.printf("      known deviation: %s%n", v.actual());
                for (Verdict.Problem p : v.problems()) {
                    out.printf("        %s%n", profile.finding(p.deviation()));
                }
            }
            case FAILED -> {
                out.printf("      → %s %s%n", c.rfc(), String.join(" ", c.requirements()));
                out.printf("        expected: %s%n", v.expected());
                out.printf("          actual: %s%n", v.actual());
                for (Verdict.Problem p : v.problems()) {
                    if (!p.text().equals(v.actual())) {
                        out.printf("         problem: %s%s%n", p.text(), p.deviation() == null ? ""
                                : " [" + p.deviation() + "]");
                    }
                }
                transcript(out, v.transcript());
            }
            default -> {
                if (verbose) {
                    out.printf("        %s%n", v.actual());
                }
            }
        }
    }

    private static void transcript(PrintWriter out, List<Wire.Event> events) {
        if (events.isEmpty()) {
            return;
        }
        out.println("        octets:");
        for (Wire.Event e : events) {
            byte[] o = e.octets();
            String hex = o.length > SHOWN_OCTETS ? Hex.of(Arrays.copyOf(o, SHOWN_OCTETS)) + " … ("
                    + o.length + " octets)" : Hex.of(o);
            out.printf("          %6d ms %s %s%s%n", e.millis(), e.fromPeer() ? "peer →" : "→ peer", e.label(),
                    o.length == 0 ? "" : ": " + hex);
            if (e.fromPeer() && "FPDU".equals(e.label())) {
                for (String l : explain(o).split("\n")) {
                    if (!l.isBlank()) {
                        out.printf("                      %s%n", l);
                    }
                }
            }
        }
    }

    /** An FPDU as {@code iwarp explain} shows it (CRC judged as on: the caller showed what the oracle found). */
    static String explain(byte[] fpdu) {
        try {
            Explanation x = Explainer.explainHex(new HexStream(fpdu, true, null, false, 0), "peer FPDU");
            return HumanRenderer.render(x.frames());
        } catch (RuntimeException e) {
            return "(explain could not decode these octets: " + e.getMessage() + ")";
        }
    }

    static void summary(PrintWriter out, List<Runner.Result> results, long millis) {
        Map<Verdict.Status, Integer> t = totals(results);
        out.println();
        out.printf("Finished in %.1f s%n", millis / 1000.0);
        out.printf("%d checks, %d passed, %d failed, %d known deviations, %d skipped%n", results.size(),
                t.get(Verdict.Status.PASSED), t.get(Verdict.Status.FAILED), t.get(Verdict.Status.KNOWN),
                t.get(Verdict.Status.SKIPPED));
    }

    // ------------------------------------------------------------------ JSON

    static String json(String target, Role role, App app, Profile profile, List<Runner.Result> results, long millis) {
        Map<Verdict.Status, Integer> t = totals(results);
        List<Json> checks = new ArrayList<>();
        for (Runner.Result r : results) {
            Check c = r.check();
            Verdict v = r.verdict();
            List<Json> problems = new ArrayList<>();
            for (Verdict.Problem p : v.problems()) {
                problems.add(Json.obj("text", Json.str(p.text()), "deviation", p.deviation() == null ? Json.Null.NULL
                        : Json.str(p.deviation()), "finding", profile.finding(p.deviation()) == null ? Json.Null.NULL
                        : Json.str(profile.finding(p.deviation()))));
            }
            List<Json> octets = new ArrayList<>();
            if (v.status() != Verdict.Status.PASSED) {
                for (Wire.Event e : v.transcript()) {
                    octets.add(Json.obj("ms", Json.num(e.millis()), "from", Json.str(e.fromPeer() ? "peer" : "us"),
                            "what", Json.str(e.label()), "hex", Json.str(Hex.of(e.octets()))));
                }
            }
            checks.add(Json.obj("id", Json.str(c.id()), "group", Json.str(c.group()), "title", Json.str(c.title()),
                    "rfc", Json.str(c.rfc()),
                    "requirements", Json.arr(c.requirements().stream().map(Json::str).toList()),
                    "status", Json.str(v.status().name().toLowerCase(Locale.ROOT)),
                    "expected", v.expected() == null ? Json.Null.NULL : Json.str(v.expected()),
                    "actual", v.actual() == null ? Json.Null.NULL : Json.str(v.actual()),
                    "problems", Json.arr(problems), "ms", Json.num(v.millis()), "octets", Json.arr(octets)));
        }
        Map<String, Json> totals = new LinkedHashMap<>();
        totals.put("checks", Json.num(results.size()));
        t.forEach((k, n) -> totals.put(k.name().toLowerCase(Locale.ROOT), Json.num(n)));
        List<Object> tm = new ArrayList<>();
        totals.forEach((k, n) -> {
            tm.add(k);
            tm.add(n);
        });
        return JsonWriter.write(Json.obj("target", Json.str(target), "role", Json.str(role.name().toLowerCase(
                Locale.ROOT)), "app", Json.str(app.name().toLowerCase(Locale.ROOT)),
                "profile", Json.str(profile.name().toLowerCase(Locale.ROOT)), "ms", Json.num(millis),
                "totals", Json.obj(tm.toArray()), "checks", Json.arr(checks)));
    }

    // ------------------------------------------------------------------ JUnit XML

    /**
     * The JUnit XML that CI servers read: one testsuite per group, one testcase per check; failures carry
     * expected, actual and the octets; skipped checks their reason; known deviations pass with a note.
     */
    static void junit(OutputStream os, String target, List<Runner.Result> results, long millis)
            throws IOException {
        try {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(os, "UTF-8");
            Map<String, List<Runner.Result>> groups = new LinkedHashMap<>();
            results.forEach(r -> groups.computeIfAbsent(r.check().group(), k -> new ArrayList<>()).add(r));
            Map<Verdict.Status, Integer> all = totals(results);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuites");
            x.writeAttribute("name", "iwarp conformance " + target);
            x.writeAttribute("tests", Integer.toString(results.size()));
            x.writeAttribute("failures", Integer.toString(all.get(Verdict.Status.FAILED)));
            x.writeAttribute("skipped", Integer.toString(all.get(Verdict.Status.SKIPPED)));
            x.writeAttribute("errors", "0");
            x.writeAttribute("time", seconds(millis));
            for (Map.Entry<String, List<Runner.Result>> g : groups.entrySet()) {
                Map<Verdict.Status, Integer> t = totals(g.getValue());
                long ms = g.getValue().stream().mapToLong(r -> r.verdict().millis()).sum();
                x.writeCharacters("\n  ");
                x.writeStartElement("testsuite");
                x.writeAttribute("name", g.getKey());
                x.writeAttribute("tests", Integer.toString(g.getValue().size()));
                x.writeAttribute("failures", Integer.toString(t.get(Verdict.Status.FAILED)));
                x.writeAttribute("skipped", Integer.toString(t.get(Verdict.Status.SKIPPED)));
                x.writeAttribute("errors", "0");
                x.writeAttribute("time", seconds(ms));
                for (Runner.Result r : g.getValue()) {
                    testcase(x, r);
                }
                x.writeCharacters("\n  ");
                x.writeEndElement();
            }
            x.writeCharacters("\n");
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndDocument();
            x.flush();
        } catch (XMLStreamException e) {
            throw new IOException("cannot write JUnit XML: " + e.getMessage(), e);
        }
    }

    private static void testcase(XMLStreamWriter x, Runner.Result r) throws XMLStreamException {
        Check c = r.check();
        Verdict v = r.verdict();
        x.writeCharacters("\n    ");
        x.writeStartElement("testcase");
        x.writeAttribute("classname", "iwarp.conformance.group" + c.number()[0]);
        x.writeAttribute("name", c.id() + " " + c.title());
        x.writeAttribute("time", seconds(v.millis()));
        switch (v.status()) {
            case FAILED -> {
                x.writeStartElement("failure");
                x.writeAttribute("message", "expected " + v.expected() + "; actual " + v.actual());
                x.writeAttribute("type", c.rfc() + " " + String.join(" ", c.requirements()));
                StringBuilder b = new StringBuilder();
                v.problems().forEach(p -> b.append(p.text()).append('\n'));
                for (Wire.Event e : v.transcript()) {
                    b.append(e.millis()).append(" ms ").append(e.fromPeer() ? "peer -> " : "-> peer ").append(e.label())
                            .append(' ').append(Hex.of(e.octets())).append('\n');
                }
                x.writeCharacters(b.toString());
                x.writeEndElement();
            }
            case SKIPPED -> {
                x.writeEmptyElement("skipped");
                x.writeAttribute("message", v.actual());
            }
            case KNOWN -> {
                x.writeStartElement("system-out");
                x.writeCharacters("known deviation: " + v.actual());
                x.writeEndElement();
            }
            default -> { }
        }
        x.writeEndElement();
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.3f", millis / 1000.0);
    }

    static PrintWriter utf8(OutputStream os) {
        return new PrintWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8), true);
    }
}
