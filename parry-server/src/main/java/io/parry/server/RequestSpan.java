package io.parry.server;

import io.parry.http.tracing.TraceContext;

/**
 * The span a {@link RequestTracer} started for one request: its ids, and the end of it, which the
 * server reports once with the request's {@link RequestLog}.
 */
public interface RequestSpan {

    /** The span's place in its trace: the request's {@link RequestContext#traceContext()}. */
    TraceContext context();

    /**
     * The request ended: after its last response byte was written, or when its connection broke.
     * Called once, on the connection's event loop, after the request listeners; must be quick and
     * never block.
     */
    void end(RequestLog log);
}
