package io.parry.server;

/**
 * Told once about each request when it ends: after its last response byte was written, or when its
 * connection broke. Runs on the connection's event loop: must be quick and never block; hand slow work,
 * such as writing a log line, to another thread (as {@link io.parry.server.accesslog.AccessLog} does).
 *
 * <p>Requests the server refuses before any handler sees them (400, 408, 413, 414, 417, 431...) end
 * here too, with their status and a {@code null} route. A listener that throws is logged at WARN the
 * first time, and the listeners after it are still called.
 *
 * <pre>{@code
 * Server.builder().handler(api).listener(log -> slowRequests.record(log.durationNanos())).build();
 * }</pre>
 */
@FunctionalInterface
public interface RequestListener {

    /** Called once when the request ends, on the connection's event loop. */
    void requestEnded(RequestLog log);
}
