package io.parry.server.internal;

import io.parry.http.tracing.TraceContext;
import io.parry.server.RequestContext;
import io.parry.transport.spi.CallerContext;
import io.parry.transport.spi.RequestIds;

/**
 * A request context whose ids the SLF4J MDC shows while it is current ({@link RequestIds}), and
 * which a client call made while it is current takes along ({@link CallerContext}).
 */
public interface TracedContext extends RequestContext, CallerContext, RequestIds {
    @Override
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
