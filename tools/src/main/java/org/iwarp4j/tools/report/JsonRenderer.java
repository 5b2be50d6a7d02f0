package org.iwarp4j.tools.report;

import java.util.List;

/** Renders frames for scripts: a JSON array with one object per frame, one frame per line. */
public final class JsonRenderer {

    private JsonRenderer() {}

    public static String render(List<Layer> frames) {
        if (frames.isEmpty()) {
            return "[]\n";
        }
        StringBuilder out = new StringBuilder("[\n");
        for (int i = 0; i < frames.size(); i++) {
            JsonWriter.write(frames.get(i).toJson(), out);
            out.append(i + 1 < frames.size() ? ",\n" : "\n");
        }
        return out.append("]\n").toString();
    }
}
