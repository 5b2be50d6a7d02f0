package org.iwarp4j.tools.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One protocol layer of one decoded frame, the shape both outputs of the tools are rendered from: a
 * heading, then items in order (rows for people: label, value, RFC section, meaning; JSON members
 * for scripts; hex dumps; notes), then nested layers.
 *
 * <p>A decoded frame is a top-level layer (a JSON object in the output array). A nested layer with a
 * JSON key becomes a nested object ({@code "ddp": {...}}). A layer added with {@link #childBeside} is
 * shown to people inside its parent but sits beside it in JSON: RDMAP's control field lives inside the
 * DDP header (RsvdULP, RFC 5040 §4.1), so people read RDMAP within DDP while scripts find
 * {@code "rdmap"} next to {@code "ddp"}.
 */
public final class Layer {

    /** Something a layer shows. */
    public sealed interface Item permits Row, Member, Dump, Note {}

    /** A field as people read it: {@code ULPDU_Length  0x0022 (34)  RFC 5044 §4.1  octets of the ULPDU}. */
    public record Row(String label, String value, String rfc, String meaning) implements Item {
        public Row {
            Objects.requireNonNull(label);
            Objects.requireNonNull(value);
            rfc = rfc == null ? "" : rfc;
            meaning = meaning == null ? "" : meaning;
        }
    }

    /** A member of this layer's JSON object. */
    public record Member(String key, Json value) implements Item {
        public Member {
            Objects.requireNonNull(key);
            Objects.requireNonNull(value);
        }
    }

    /** Octets shown as a hex dump (offsets relative to the first octet shown). */
    public record Dump(String label, byte[] bytes, String rfc, String meaning) implements Item {
        public Dump {
            bytes = bytes.clone();
            rfc = rfc == null ? "" : rfc;
            meaning = meaning == null ? "" : meaning;
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }
    }

    /** A line of explanation for people. */
    public record Note(String text) implements Item {}

    private final String heading;
    private final String jsonKey;
    private final List<Item> items = new ArrayList<>();
    private final List<Layer> children = new ArrayList<>();
    private boolean jsonBesideParent;

    /**
     * @param heading what people see above the fields, e.g. {@code MPA FPDU (RFC 5044 §4.1)}
     * @param jsonKey key of this layer's object inside its parent's, or {@code null} (a frame, or a
     *                layer shown to people only)
     */
    public Layer(String heading, String jsonKey) {
        this.heading = Objects.requireNonNull(heading);
        this.jsonKey = jsonKey;
    }

    /** A field shown to people only. */
    public Layer row(String label, String value, String rfc, String meaning) {
        items.add(new Row(label, value, rfc, meaning));
        return this;
    }

    /** A JSON member only. */
    public Layer json(String key, Json value) {
        items.add(new Member(key, value));
        return this;
    }

    /** A field shown to people and written to JSON. */
    public Layer field(String label, String value, String rfc, String meaning, String key, Json json) {
        row(label, value, rfc, meaning);
        return json(key, json);
    }

    public Layer dump(String label, byte[] bytes, String rfc, String meaning) {
        items.add(new Dump(label, bytes, rfc, meaning));
        return this;
    }

    public Layer note(String text) {
        items.add(new Note(text));
        return this;
    }

    /** Nests {@code layer} below this one (after every item of this layer). */
    public Layer child(Layer layer) {
        children.add(Objects.requireNonNull(layer));
        return this;
    }

    /**
     * Nests {@code layer} below this one for people; in JSON its object becomes a member of this
     * layer's parent, right after this layer's own object.
     */
    public Layer childBeside(Layer layer) {
        child(layer);
        layer.jsonBesideParent = true;
        return this;
    }

    public String heading() {
        return heading;
    }

    public String jsonKey() {
        return jsonKey;
    }

    public List<Item> items() {
        return Collections.unmodifiableList(items);
    }

    public List<Layer> children() {
        return Collections.unmodifiableList(children);
    }

    /** The JSON member {@code key} of this layer, or {@code null}. */
    public Json member(String key) {
        for (Item item : items) {
            if (item instanceof Member m && m.key().equals(key)) {
                return m.value();
            }
        }
        return null;
    }

    /**
     * This layer as a JSON object: its members in order, then every child that has a JSON key, each
     * followed by the children it holds {@linkplain #childBeside beside} itself.
     */
    public Json.Obj toJson() {
        List<Json.Member> members = new ArrayList<>();
        for (Item item : items) {
            if (item instanceof Member m) {
                members.add(new Json.Member(m.key(), m.value()));
            }
        }
        for (Layer child : children) {
            if (child.jsonKey != null && !child.jsonBesideParent) {
                members.add(new Json.Member(child.jsonKey, child.toJson()));
            }
            for (Layer beside : child.children) {
                if (beside.jsonKey != null && beside.jsonBesideParent) {
                    members.add(new Json.Member(beside.jsonKey, beside.toJson()));
                }
            }
        }
        return new Json.Obj(members);
    }
}
