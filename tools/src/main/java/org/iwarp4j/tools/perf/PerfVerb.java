package org.iwarp4j.tools.perf;

/** What a perf run measures, with perftest's names for its report title. */
public enum PerfVerb {
    WRITE("RDMA_Write"),
    READ("RDMA_Read"),
    SEND("Send"),
    ATOMIC("Atomic"),
    TCP("TCP");

    private final String title;

    PerfVerb(String title) {
        this.title = title;
    }

    /** perftest's name, e.g. {@code RDMA_Write}. */
    public String title() {
        return title;
    }

    static PerfVerb fromCode(int code) {
        PerfVerb[] all = values();
        if (code < 0 || code >= all.length) {
            throw new IllegalArgumentException("unknown perf test " + code);
        }
        return all[code];
    }
}
