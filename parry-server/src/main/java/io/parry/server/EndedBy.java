package io.parry.server;

/**
 * Which side ended an exchange that did not end normally, as a {@link RequestLog} records it. Only
 * what the upstream caused may count against an upstream (a proxy's breakers, ejection, error
 * metrics); what the client caused is counted apart.
 */
public enum EndedBy {
    /**
     * The client: it sent a request the server refused (malformed, too large, too slow), closed or reset
     * its connection before the response was complete, or stopped reading it.
     */
    CLIENT,
    /** The upstream a proxy called: it could not be reached, answered too late or badly, or broke its body. */
    UPSTREAM,
    /** The server itself: a handler or filter failed, or a proxy route could not build its request. */
    SERVER
}
