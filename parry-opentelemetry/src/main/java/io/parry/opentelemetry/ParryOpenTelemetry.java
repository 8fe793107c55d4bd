package io.parry.opentelemetry;

import static java.util.Objects.requireNonNull;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.parry.client.ClientFilter;
import io.parry.http.tracing.TraceContext;
import io.parry.opentelemetry.internal.ClientSpans;
import io.parry.opentelemetry.internal.ServerSpans;
import io.parry.opentelemetry.internal.SpanContexts;
import io.parry.server.RequestTracer;

/**
 * OpenTelemetry spans for Parry: a SERVER span for each request a server takes, a CLIENT span for each
 * client call and for each attempt of a proxy, with the HTTP semantic-convention attributes, recorded
 * by whatever SDK the {@link OpenTelemetry} instance has, so its exporters send them on.
 *
 * <pre>{@code
 * ParryOpenTelemetry otel = ParryOpenTelemetry.of(openTelemetry);
 * Server.builder().handler(api).tracer(otel.requestTracer()).build();
 * HttpClient client = HttpClient.builder().filter(otel.clientFilter()).build();
 * HttpClient usersClient = HttpClient.builder().filter(otel.upstreamFilter("users")).build();
 * GuardedUpstream users = GuardedUpstream.builder(usersUpstream).client(usersClient).build();
 * }</pre>
 *
 * <p>The spans carry the very ids Parry puts in the SLF4J MDC, in the {@link
 * io.parry.server.RequestLog} (and so the access log) and in the {@code traceparent} and B3 fields it
 * sends: the OpenTelemetry API cannot give a span chosen ids, so Parry takes the ids of the spans the
 * SDK starts. The caller's span, read from {@code traceparent} or B3 by Parry, is a server span's
 * parent; the span of the request a call is made for is the call's parent. With a no-op OpenTelemetry
 * nothing is recorded and Parry keeps numbering spans itself.
 *
 * <p>Server spans start before the handler runs and end with the request's last response byte (or
 * its broken connection): a 5xx, or a response not written in full ({@code error.type} {@code
 * response_incomplete}), marks them as errors. Client spans end with the response head or the
 * failure ({@code error.type}: the failure's class name, or the status of a 4xx or 5xx). Immutable and
 * thread-safe.
 */
public final class ParryOpenTelemetry {
    /** The instrumentation scope the spans are recorded under. */
    public static final String INSTRUMENTATION_NAME = "io.parry.opentelemetry";

    private final Tracer tracer;
    private final RequestTracer requestTracer;
    private final ClientFilter clientFilter;

    private ParryOpenTelemetry(Tracer tracer) {
        this.tracer = tracer;
        this.requestTracer = new ServerSpans(tracer);
        this.clientFilter = new ClientSpans(tracer, null);
    }

    /** Spans recorded through this OpenTelemetry instance's tracer provider. */
    public static ParryOpenTelemetry of(OpenTelemetry openTelemetry) {
        requireNonNull(openTelemetry, "openTelemetry");
        return new ParryOpenTelemetry(openTelemetry.getTracer(INSTRUMENTATION_NAME));
    }

    /**
     * The server's tracer, for {@link io.parry.server.Server.Builder#tracer(RequestTracer)}: a SERVER
     * span per request with {@code http.request.method}, {@code url.path}, {@code url.query}, {@code
     * url.scheme}, {@code http.route}, {@code http.response.status_code}, {@code server.address},
     * {@code server.port}, {@code client.address}, {@code network.protocol.version}, {@code
     * user_agent.original} and {@code error.type}.
     */
    public RequestTracer requestTracer() {
        return requestTracer;
    }

    /**
     * A filter for {@link io.parry.client.HttpClient.Builder#filter(ClientFilter)}: a CLIENT span per
     * call with {@code http.request.method}, {@code url.full}, {@code server.address}, {@code
     * server.port}, {@code network.protocol.version}, {@code http.response.status_code} and {@code
     * error.type}. Add it first, so it sees the thread the call was made on; a request that already
     * carries trace fields is sent untraced, as the client would send it.
     */
    public ClientFilter clientFilter() {
        return clientFilter;
    }

    /**
     * A filter for the client of a proxied upstream ({@code GuardedUpstream.Builder#client}): every
     * attempt of a {@code ProxyHandler}, retries included, becomes a CLIENT span of its own, as with
     * {@link #clientFilter()}, with the attribute {@code parry.upstream} naming the upstream.
     *
     * @throws IllegalArgumentException if the name is blank
     */
    public ClientFilter upstreamFilter(String upstream) {
        requireNonNull(upstream, "upstream");
        if (upstream.isBlank()) {
            throw new IllegalArgumentException("upstream: blank (expected: the upstream's name)");
        }
        return new ClientSpans(tracer, upstream);
    }

    /**
     * An OpenTelemetry context whose current span is {@code trace}'s, for an application's own spans
     * inside a Parry request: {@code tracer.spanBuilder("query").setParent(ParryOpenTelemetry.context(
     * ctx.traceContext()))}.
     */
    public static Context context(TraceContext trace) {
        return SpanContexts.local(requireNonNull(trace, "trace"));
    }

    @Override
    public String toString() {
        return "ParryOpenTelemetry(" + tracer + ")";
    }
}
