package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.CmEventListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Delivers connection manager events: a listener that throws is logged, never breaks the connection. */
final class CmEvents {

    private static final Logger LOG = LoggerFactory.getLogger(CmEvents.class);

    private CmEvents() {}

    static void fire(CmEventListener listener, CmEvent event) {
        try {
            listener.onEvent(event);
        } catch (RuntimeException e) {
            LOG.warn("CM event listener failed on {}", event.rdmaCmName(), e);
        }
    }
}
