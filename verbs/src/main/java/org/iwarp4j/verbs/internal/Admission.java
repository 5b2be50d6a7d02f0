package org.iwarp4j.verbs.internal;

import java.nio.charset.StandardCharsets;

/**
 * What one connection a listener accepted holds of the limits checked at TCP accept: a slot of the RNIC's
 * {@code maxStartupsInProgress} until its MPA startup ends, and a slot of the listener's {@code maxConnections}
 * until it closes, or, when the listener was full, the refusal its MPA Request gets. Each slot is given back
 * exactly once, whichever end comes first. On the connection's event loop.
 */
final class Admission {

    private final ResourceLimit startups;
    private final ResourceLimit connections;
    private boolean startupHeld;
    private boolean connectionHeld;

    private Admission(ResourceLimit startups, ResourceLimit connections, boolean connectionHeld) {
        this.startups = startups;
        this.connections = connections;
        this.startupHeld = true;
        this.connectionHeld = connectionHeld;
    }

    /**
     * Takes a startup slot and, if one is free, a connection slot; {@code null} when the RNIC has its maximum of
     * startups in progress (nothing taken: close the connection before anything else is made for it).
     */
    static Admission tryAdmit(ResourceLimit startups, ResourceLimit connections) {
        if (!startups.tryAcquire(1)) {
            return null;
        }
        return new Admission(startups, connections, connections.tryAcquire(1));
    }

    /** The text of the refusal the MPA Request gets ({@code maxConnections} reached), or {@code null}. */
    String refusal() {
        return connectionHeld ? null : "iwarp4j: " + connections.reached();
    }

    /** The refusal as the private data of a Reply with R=1 (RFC 5044 §7.1.2 rule 2), ASCII. */
    byte[] refusalPrivateData() {
        return refusal().getBytes(StandardCharsets.US_ASCII);
    }

    /** MPA's startup ended: established, rejected or failed. */
    void startupEnded() {
        if (startupHeld) {
            startupHeld = false;
            startups.release(1);
        }
    }

    /** The TCP connection closed. */
    void closed() {
        startupEnded();
        if (connectionHeld) {
            connectionHeld = false;
            connections.release(1);
        }
    }
}
