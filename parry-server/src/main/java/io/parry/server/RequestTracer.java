package io.parry.server;

import io.parry.http.HttpRequest;
import io.parry.http.tracing.TraceContext;

/**
 * Starts the span of each request a server traces: the hook a tracing system plugs in, such as
 * {@code parry-opentelemetry}, so that the ids Parry puts in the MDC, the request log and the calls
 * it makes are the ids of the spans that system records. Set it with {@link
 * Server.Builder#tracer(RequestTracer)}; without one, Parry numbers spans itself.
 *
 * <pre>{@code
 * Server.builder().handler(api).tracer(ParryOpenTelemetry.of(openTelemetry).requestTracer()).build();
 * }</pre>
 *
 * <p>It is called when a request's trace is made: on the event loop before the handler runs (or,
 * for a request refused before any handler, when it ends), or when first asked for with {@linkplain
 * ServerOptions.Builder#tracing(boolean) tracing} off. It must be quick and never block. A tracer
 * that throws, or returns {@code null}, costs the request its span, never the request: Parry's own
 * span is used and the failure logged.
 */
@FunctionalInterface
public interface RequestTracer {

    /**
     * Starts the span serving a request.
     *
     * @param ctx the request's context
     * @param request the request, or {@code null} for one refused before its head could be read
     * @param proposed the span Parry would use: a child of the caller's span in the request's trace
     *     fields, or a new root when none usable arrived, with the caller's sampling decision, {@code
     *     tracestate} and B3 form. A tracer that numbers spans itself returns {@link
     *     TraceContext#withIds(String, String, boolean) proposed.withIds(...)}
     * @return the started span, whose context becomes the request's {@link RequestContext#traceContext()}
     */
    RequestSpan start(RequestContext ctx, HttpRequest request, TraceContext proposed);
}
