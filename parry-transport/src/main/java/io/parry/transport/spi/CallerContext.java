package io.parry.transport.spi;

import io.parry.http.tracing.TraceContext;

/**
 * The request a thread is working for, as a client call made on that thread sees it: the client
 * cannot depend on the server, so the server's contexts implement this and keep the current one in
 * {@link CurrentCaller}. A call takes it along to give its request a span of the request's trace, and
 * to complete its stages with the request's context current again, SLF4J MDC included, on whatever
 * thread the response arrives.
 */
public interface CallerContext {
    /** The request's span: the parent of the spans of the calls made for it. */
    TraceContext traceContext();

    /**
     * Makes this context current on the running thread, as the server does around the request's own
     * work; pair with {@link #exit(Object)} in a {@code finally}.
     *
     * @return what was current before, for {@link #exit(Object)}
     */
    Object enter();

    /** Makes {@code previous}, returned by {@link #enter()}, current again. */
    void exit(Object previous);
}
