package io.parry.http.tracing;

/** A way of carrying a {@link TraceContext} in HTTP header fields. */
public enum TraceFormat {
    /**
     * <a href="https://www.w3.org/TR/trace-context/">W3C Trace Context</a>: {@code traceparent}, with
     * the trace's {@code tracestate}.
     */
    W3C,
    /**
     * <a href="https://github.com/openzipkin/b3-propagation">B3</a> in one field:
     * {@code b3: {traceId}-{spanId}-{sampled}-{parentSpanId}}.
     */
    B3_SINGLE,
    /**
     * <a href="https://github.com/openzipkin/b3-propagation">B3</a> in several fields:
     * {@code X-B3-TraceId}, {@code X-B3-SpanId}, {@code X-B3-ParentSpanId}, {@code X-B3-Sampled},
     * {@code X-B3-Flags}.
     */
    B3_MULTI
}
