package io.parry.transport.spi;

/**
 * Marks an SLF4J {@code MDCAdapter} that answers {@code traceId}, {@code spanId} and {@code requestId}
 * itself from the {@link RequestIds} of the {@link CurrentCaller}, building their strings only when
 * asked. When the installed adapter is one, the server puts nothing in the MDC per request; it looks
 * once, when its MDC code is first loaded.
 */
public interface LazyRequestMdc {
    /** The MDC key of the request's trace id: 32 lowercase hex digits. */
    String TRACE_ID = "traceId";

    /** The MDC key of the request's span id: 16 lowercase hex digits. */
    String SPAN_ID = "spanId";

    /** The MDC key of the request's id. */
    String REQUEST_ID = "requestId";
}
