package io.parry.opentelemetry.internal;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.semconv.ErrorAttributes;
import io.opentelemetry.semconv.HttpAttributes;
import io.opentelemetry.semconv.NetworkAttributes;
import io.opentelemetry.semconv.ServerAttributes;
import io.opentelemetry.semconv.UrlAttributes;
import io.parry.client.ClientFilter;
import io.parry.client.ClientSender;
import io.parry.client.Endpoint;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.tracing.TraceContext;
import io.parry.http.tracing.TracePropagation;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Makes each call a CLIENT span, a child of the span of the Parry request the call is made for (or a
 * new trace), and sends that span's ids in the request's trace fields in place of the ids the client
 * would choose. The span ends with the response head or the failure. A request that already carries
 * trace fields is passed on untouched and untraced: whoever put them there owns the call's span.
 */
public final class ClientSpans implements ClientFilter {
    /** The name of the proxied upstream, on the spans of a proxy's attempts. */
    public static final AttributeKey<String> UPSTREAM = AttributeKey.stringKey("parry.upstream");

    private static final TracePropagation PROPAGATION = TracePropagation.ofDefault();

    private final Tracer tracer;
    /** The upstream's name, or {@code null} for a client that is not a proxy's. */
    private final String upstream;

    public ClientSpans(Tracer tracer, String upstream) {
        this.tracer = tracer;
        this.upstream = upstream;
    }

    @Override
    public CompletionStage<HttpResponse> filter(ClientSender next, Endpoint endpoint, HttpRequest request) {
        if (PROPAGATION.extract(request.headers()) != null) {
            return next.send(endpoint, request);
        }
        TraceContext parent =
                RequestContext.current().map(RequestContext::traceContext).orElse(null);
        Span span = start(endpoint, request, parent);
        TraceContext proposed = parent != null ? parent.child() : TraceContext.newRoot(true);
        TraceContext call =
                SpanContexts.adopt(proposed, span.getSpanContext(), parent == null ? null : parent.spanId());
        HttpRequest traced = request.withHeaders(PROPAGATION.inject(call, request.headers()));
        CompletionStage<HttpResponse> stage;
        try {
            stage = next.send(endpoint, traced);
        } catch (RuntimeException e) {
            end(span, null, e);
            return CompletableFuture.failedFuture(e);
        }
        return stage.whenComplete((response, failure) -> end(span, response, failure));
    }

    private Span start(Endpoint endpoint, HttpRequest request, TraceContext parent) {
        SpanBuilder builder = tracer.spanBuilder(HttpSemantics.spanName(request.method()))
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(UrlAttributes.URL_FULL, url(endpoint, request.target()))
                .setAttribute(ServerAttributes.SERVER_ADDRESS, endpoint.host())
                .setAttribute(ServerAttributes.SERVER_PORT, (long) endpoint.port())
                .setAttribute(NetworkAttributes.NETWORK_PROTOCOL_VERSION, "1.1");
        HttpSemantics.method(builder, request.method());
        if (upstream != null) {
            builder.setAttribute(UPSTREAM, upstream);
        }
        if (parent == null) {
            builder.setNoParent();
        } else {
            builder.setParent(SpanContexts.local(parent));
        }
        return builder.startSpan();
    }

    /** The absolute URL: the target itself when in absolute-form, else the endpoint's origin before it. */
    private static String url(Endpoint endpoint, String target) {
        if (target.regionMatches(true, 0, "http://", 0, 7)) {
            return target;
        }
        return "http://" + endpoint.authority() + target;
    }

    private static void end(Span span, HttpResponse response, Throwable failure) {
        if (failure != null) {
            Throwable cause =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            span.setAttribute(ErrorAttributes.ERROR_TYPE, cause.getClass().getName());
            span.setStatus(StatusCode.ERROR, String.valueOf(cause.getMessage()));
        } else {
            int status = response.status().code();
            span.setAttribute(HttpAttributes.HTTP_RESPONSE_STATUS_CODE, (long) status);
            if (status >= 400) {
                span.setAttribute(ErrorAttributes.ERROR_TYPE, Integer.toString(status));
                span.setStatus(StatusCode.ERROR);
            }
        }
        span.end();
    }

    @Override
    public String toString() {
        return upstream == null
                ? "ParryOpenTelemetry.clientFilter()"
                : "ParryOpenTelemetry.upstreamFilter(" + upstream + ")";
    }
}
