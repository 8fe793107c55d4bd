package io.parry.transport.spi;

import io.parry.http.tracing.TraceContext;

/**
 * The ids the SLF4J MDC shows for a request: the server's contexts implement it, and a {@link
 * LazyRequestMdc} reads them from the {@link CurrentCaller} when a log line or {@code MDC.get} asks.
 */
public interface RequestIds {
    /**
     * The trace whose ids the MDC shows while this request's context is current, or {@code null} when
     * the server runs with tracing off (then the MDC shows none of the request's ids). Made on first
     * call when nothing asked before; contexts of the same request return the same instance.
     */
    TraceContext mdcTrace();

    /** The request's id, unique within the server's run. */
    String requestId();
}
