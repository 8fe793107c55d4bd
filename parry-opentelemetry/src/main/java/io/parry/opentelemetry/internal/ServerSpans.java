package io.parry.opentelemetry.internal;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.semconv.ClientAttributes;
import io.opentelemetry.semconv.NetworkAttributes;
import io.opentelemetry.semconv.ServerAttributes;
import io.opentelemetry.semconv.UrlAttributes;
import io.opentelemetry.semconv.UserAgentAttributes;
import io.parry.http.HttpRequest;
import io.parry.http.tracing.TraceContext;
import io.parry.server.RequestContext;
import io.parry.server.RequestSpan;
import io.parry.server.RequestTracer;
import java.net.InetSocketAddress;

/**
 * Starts a SERVER span for each request, with the attributes known from its head; {@link ServerSpan}
 * adds the rest when the request ends. The caller's span, from the request's trace fields as Parry
 * read them (W3C or B3), is the remote parent.
 */
public final class ServerSpans implements RequestTracer {
    private final Tracer tracer;

    public ServerSpans(Tracer tracer) {
        this.tracer = tracer;
    }

    @Override
    public RequestSpan start(RequestContext ctx, HttpRequest request, TraceContext proposed) {
        SpanBuilder builder = tracer.spanBuilder(HttpSemantics.spanName(request == null ? null : request.method()))
                .setSpanKind(SpanKind.SERVER)
                .setAttribute(UrlAttributes.URL_SCHEME, "http")
                .setAttribute(
                        NetworkAttributes.NETWORK_PROTOCOL_VERSION, HttpSemantics.protocolVersion(ctx.protocol()));
        Context parent = SpanContexts.remoteParent(proposed);
        if (parent == null) {
            builder.setNoParent();
        } else {
            builder.setParent(parent);
        }
        String client = HttpSemantics.address(ctx.remoteAddress());
        if (client != null) {
            builder.setAttribute(ClientAttributes.CLIENT_ADDRESS, client);
        }
        if (request != null) {
            describe(builder, ctx, request);
        }
        Span span = builder.startSpan();
        TraceContext adopted = SpanContexts.adopt(proposed, span.getSpanContext(), proposed.parentSpanId());
        return new ServerSpan(span, adopted, request != null);
    }

    private static void describe(SpanBuilder builder, RequestContext ctx, HttpRequest request) {
        HttpSemantics.method(builder, request.method());
        builder.setAttribute(UrlAttributes.URL_PATH, request.path());
        if (!request.query().isEmpty()) {
            builder.setAttribute(UrlAttributes.URL_QUERY, request.query());
        }
        String userAgent = request.headers().get("user-agent");
        if (userAgent != null) {
            builder.setAttribute(UserAgentAttributes.USER_AGENT_ORIGINAL, userAgent);
        }
        String authority = request.authority();
        if (authority != null && !authority.isEmpty()) {
            serverAddress(builder, authority);
        } else {
            InetSocketAddress local = ctx.localAddress();
            if (local != null) {
                builder.setAttribute(ServerAttributes.SERVER_ADDRESS, HttpSemantics.address(local));
                builder.setAttribute(ServerAttributes.SERVER_PORT, (long) local.getPort());
            }
        }
    }

    /** {@code server.address} and {@code server.port} from {@code Host}: {@code host[:port]}, IPv6 in brackets. */
    private static void serverAddress(SpanBuilder builder, String authority) {
        int close = authority.startsWith("[") ? authority.indexOf(']') : -1;
        int colon = authority.indexOf(':', Math.max(close, 0));
        String host = close > 0 ? authority.substring(1, close) : colon < 0 ? authority : authority.substring(0, colon);
        long port = 80;
        if (colon >= 0) {
            try {
                port = Long.parseLong(authority.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1; // Not a port: the server answered it anyway, so only the host is said.
            }
        }
        builder.setAttribute(ServerAttributes.SERVER_ADDRESS, host);
        if (port >= 0) {
            builder.setAttribute(ServerAttributes.SERVER_PORT, port);
        }
    }

    @Override
    public String toString() {
        return "ParryOpenTelemetry.requestTracer()";
    }
}
