package org.iwarp4j.verbs;

/** What arms a completion queue's notification ({@code ibv_req_notify_cq(cq, solicited_only)}). */
public enum NotifyMode {
    /** The next completion of any kind. */
    NEXT,
    /** The next receive completion of a Solicited Event message, or the next unsuccessful completion. */
    SOLICITED
}
