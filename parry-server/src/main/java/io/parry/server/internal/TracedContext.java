package io.parry.server.internal;

import io.parry.http.tracing.TraceContext;
import io.parry.server.RequestContext;
import io.parry.transport.spi.CallerContext;

/**
 * A request context whose ids go into the SLF4J MDC while it is current, and which a client call
 * made while it is current takes along ({@link CallerContext}).
 */
public interface TracedContext extends RequestContext, CallerContext {
    /**
     * The trace whose ids the MDC holds while this context is current, or {@code null} when the
     * server runs with tracing off. Contexts of the same request return the same instance.
     */
    TraceContext mdcTrace();

    @Override
    TraceContext traceContext();

    @Override
    default Object enter() {
        return CurrentContext.enter(this);
    }

    @Override
    default void exit(Object previous) {
        CurrentContext.exit(this, (RequestContext) previous);
    }
}
