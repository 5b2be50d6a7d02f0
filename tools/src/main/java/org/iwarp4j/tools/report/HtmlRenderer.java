package org.iwarp4j.tools.report;

import java.util.function.Predicate;
import org.jsoup.nodes.Element;

/**
 * Renders layers as HTML for the pages of {@code explain --html}: the same fields, RFC sections, meanings, hex
 * dumps and notes that {@link HumanRenderer} prints, as a table per layer with nested layers below it. Built as
 * jsoup elements, so every text (octets of a capture included) is escaped when the page is written.
 */
public final class HtmlRenderer {

    /** Octets a dump shows at most on a page: every header, and a page that stays small for 64 KiB FPDUs. */
    public static final int DUMP_LIMIT = 1024;

    private HtmlRenderer() {}

    /** {@code layer} and every layer nested in it. */
    public static Element render(Layer layer) {
        return render(layer, child -> true);
    }

    /**
     * {@code layer} and the nested layers {@code nested} accepts (each with all of its own): a page shows a
     * frame's layers one after another (RDMAP, then DDP, then MPA) by rendering each without the one inside it.
     */
    public static Element render(Layer layer, Predicate<Layer> nested) {
        Element div = new Element("div").addClass("layer");
        div.appendElement("div").addClass("heading").text(layer.heading());
        Element table = null;
        for (Layer.Item item : layer.items()) {
            if (item instanceof Layer.Member) {
                continue;
            }
            if (table == null) {
                table = div.appendElement("table").addClass("fields");
            }
            if (item instanceof Layer.Row r) {
                row(table, r.label(), r.value(), r.rfc(), r.meaning());
            } else if (item instanceof Layer.Dump d) {
                byte[] bytes = d.bytes();
                row(table, d.label(), bytes.length + (bytes.length == 1 ? " octet" : " octets"), d.rfc(), d.meaning());
                StringBuilder hex = new StringBuilder();
                HumanRenderer.dump(hex, "", bytes, DUMP_LIMIT, "");
                table.appendElement("tr").addClass("dump")
                        .appendElement("td").attr("colspan", "4").appendElement("pre").text(hex.toString());
            } else if (item instanceof Layer.Note n) {
                table.appendElement("tr").addClass(n.text().startsWith("warning:") ? "note warning" : "note")
                        .appendElement("td").attr("colspan", "4").text(n.text());
            }
        }
        for (Layer child : layer.children()) {
            if (nested.test(child)) {
                div.appendChild(render(child));
            }
        }
        return div;
    }

    private static void row(Element table, String label, String value, String rfc, String meaning) {
        Element tr = table.appendElement("tr");
        tr.appendElement("th").text(label);
        tr.appendElement("td").addClass("value").text(value);
        tr.appendElement("td").addClass("rfc").text(rfc);
        tr.appendElement("td").addClass("meaning").text(meaning);
    }
}
