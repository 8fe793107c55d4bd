package io.parry.opentelemetry.internal;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.semconv.ErrorAttributes;
import io.opentelemetry.semconv.HttpAttributes;
import io.opentelemetry.semconv.UrlAttributes;
import io.parry.http.HttpMethod;
import io.parry.http.tracing.TraceContext;
import io.parry.server.RequestLog;
import io.parry.server.RequestSpan;

/**
 * One request's SERVER span: ends with the route, status and outcome from the request's log. A 5xx
 * or a response not written in full is an error; a 4xx is the client's, not the server's.
 */
final class ServerSpan implements RequestSpan {
    /** {@code error.type} of a request whose response was not written in full (connection broke, body failed). */
    static final String INCOMPLETE = "response_incomplete";

    private final Span span;
    private final TraceContext context;
    /** Whether the span started with the request's method and path, which a refused request lacks then. */
    private final boolean described;

    ServerSpan(Span span, TraceContext context, boolean described) {
        this.span = span;
        this.context = context;
        this.described = described;
    }

    @Override
    public TraceContext context() {
        return context;
    }

    @Override
    public void end(RequestLog log) {
        HttpMethod method = log.method();
        String route = log.route();
        if (route != null) {
            span.setAttribute(HttpAttributes.HTTP_ROUTE, route);
        }
        span.updateName(route == null ? HttpSemantics.spanName(method) : HttpSemantics.spanName(method) + " " + route);
        if (!described && method != null) {
            HttpSemantics.method(span, method);
            if (log.path() != null) {
                span.setAttribute(UrlAttributes.URL_PATH, log.path());
            }
        }
        int status = log.status();
        if (status > 0) {
            span.setAttribute(HttpAttributes.HTTP_RESPONSE_STATUS_CODE, (long) status);
        }
        if (status >= 500) {
            span.setAttribute(ErrorAttributes.ERROR_TYPE, Integer.toString(status));
            span.setStatus(StatusCode.ERROR);
        } else if (!log.completed()) {
            span.setAttribute(ErrorAttributes.ERROR_TYPE, INCOMPLETE);
            span.setStatus(StatusCode.ERROR, "the response was not written in full");
        }
        span.end();
    }
}
