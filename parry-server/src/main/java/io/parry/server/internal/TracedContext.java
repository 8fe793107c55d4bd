package io.parry.server.internal;

import io.parry.http.tracing.TraceContext;

/** A request context whose ids go into the SLF4J MDC while it is current. */
public interface TracedContext {
    /**
     * The trace whose ids the MDC holds while this context is current, or {@code null} when the
     * server runs with tracing off. Contexts of the same request return the same instance.
     */
    TraceContext mdcTrace();
}
