package io.parry.server.internal;

import io.parry.http.tracing.TraceContext;
import io.parry.server.RequestContext;
import io.parry.transport.spi.LazyRequestMdc;
import org.slf4j.MDC;

/**
 * Keeps the SLF4J MDC in step with the current request context: its trace id, span id and request id
 * while it is current, and what the context before it had (usually nothing) once it is not, so log
 * lines written for a request carry its ids and no other work on the thread does. Parry owns these
 * three keys on the threads it runs request work on. A context that is not a {@link TracedContext},
 * such as an application's wrapper around the server's, leaves the MDC as it is.
 *
 * <p>With an MDC adapter that answers the ids itself ({@link LazyRequestMdc}, such as parry-logback's)
 * this does nothing: three puts and three strings per request cost more than the rest of a small
 * request's logging, and are wasted when no line is written.
 */
final class RequestMdc {
    static final String TRACE_ID = LazyRequestMdc.TRACE_ID;
    static final String SPAN_ID = LazyRequestMdc.SPAN_ID;
    static final String REQUEST_ID = LazyRequestMdc.REQUEST_ID;

    /** Looked up once: a constant the JIT folds, so entering a context with a lazy adapter costs nothing here. */
    private static final boolean ADAPTER_ANSWERS = MDC.getMDCAdapter() instanceof LazyRequestMdc;

    private RequestMdc() {}

    /** {@code ctx} became current in place of {@code previous}. */
    static void entered(RequestContext ctx, RequestContext previous) {
        if (ADAPTER_ANSWERS || !(ctx instanceof TracedContext)) {
            return;
        }
        TraceContext trace = ((TracedContext) ctx).mdcTrace();
        // A routed context inside its server's context is the same request: nothing to change.
        if (trace != traceOf(previous)) {
            set(trace, ctx);
        }
    }

    /** {@code ctx} stopped being current and {@code previous} is current again. */
    static void exited(RequestContext ctx, RequestContext previous) {
        if (ADAPTER_ANSWERS || !(ctx instanceof TracedContext)) {
            return;
        }
        TraceContext before = traceOf(previous);
        if (((TracedContext) ctx).mdcTrace() != before) {
            set(before, previous);
        }
    }

    private static void set(TraceContext trace, RequestContext ctx) {
        if (trace == null) {
            MDC.remove(TRACE_ID);
            MDC.remove(SPAN_ID);
            MDC.remove(REQUEST_ID);
        } else {
            MDC.put(TRACE_ID, trace.traceId());
            MDC.put(SPAN_ID, trace.spanId());
            MDC.put(REQUEST_ID, ctx.requestId());
        }
    }

    private static TraceContext traceOf(RequestContext ctx) {
        return ctx instanceof TracedContext ? ((TracedContext) ctx).mdcTrace() : null;
    }
}
