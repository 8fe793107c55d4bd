package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import io.parry.client.ClientTimeouts;
import io.parry.http.HttpBody;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatusException;
import io.parry.http.spi.FixedBody;
import io.parry.proxy.internal.WebSocketUpgrades;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * A streaming reverse proxy: a handler that sends each request to an endpoint of an upstream and the
 * response back, both bodies streaming as they arrive. Reading either side pauses while the other
 * side cannot take more, so memory per exchange stays bounded whatever the body sizes.
 *
 * <p>On the way up, hop-by-hop fields are removed, {@code X-Forwarded-*}, {@code Forwarded} and
 * {@code Via} are added ({@link ForwardingOptions}), and the path, {@code Host} and header rules
 * applied. On the way down, hop-by-hop fields are removed and {@code Via} and the response rules
 * applied. Failures become problem+json: 503 when no endpoint can take the request (refused, pool or
 * bulkhead full, no healthy endpoint, every breaker open), 504 when the upstream is too slow, 502 when
 * its response is malformed or its connection breaks before the response head. A response body that
 * breaks later closes the client's connection, so it never looks complete. A client that goes away
 * cancels the upstream call. Retries follow the {@link RetryPolicy}.
 *
 * <p>A WebSocket handshake ({@code GET} with {@code Upgrade: websocket}) is routed, filtered and
 * forwarded like any request, with {@code Upgrade: websocket} kept; once the upstream answers {@code
 * 101}, the client gets its {@code 101} and frames flow both ways ({@link WebSocketProxyOptions} says
 * how, and sets the limits and allowed origins). No other upgrade is forwarded: a request asking for
 * {@code h2c}, say, reaches the upstream as a plain HTTP/1.1 request. Response bodies stream as they
 * arrive, so server-sent events reach the client one by one; only the upstream call's body-idle
 * timeout (and a whole-call timeout, if one is set) limits how long a response may stream.
 * <p>A gRPC call ({@code content-type: application/grpc*}) gets a gRPC status instead of a problem
 * page: HTTP 200 with {@code grpc-status} (UNAVAILABLE 14 when no endpoint can take it,
 * DEADLINE_EXCEEDED 4 when the upstream is too slow) and no body; an upstream error status without
 * {@code grpc-status} is turned into one too. Its {@code grpc-timeout} is the upstream call's
 * deadline when shorter than the configured call timeout. {@code TE: trailers}, which gRPC requires,
 * is forwarded; the client speaks HTTP/1.1 or HTTP/2 to the upstream as its options say, and the
 * proxy is the same either way.
 *
 * <p>Every attempt carries the request's trace in a span of its own: the caller's trace fields are
 * dropped and the upstream's client, called in the request's context, sends a child of the server's
 * span (W3C {@code traceparent}, and B3 too when the request came with B3). With {@link
 * io.parry.client.ClientOptions.Builder#tracing(boolean) tracing} off on that client, no trace
 * fields go upstream.
 *
 * <pre>{@code
 * GuardedUpstream api = GuardedUpstream.of(Upstream.of("api", Endpoint.parse("127.0.0.1:9000")));
 * Server.builder().handler(ProxyHandler.builder(api).path(PathRewrite.stripPrefix("/api")).build()).start();
 * }</pre>
 *
 * The handler runs on the connection's event loop, and so does its upstream call when the upstream's
 * client is used from a Parry server: a proxied exchange does not change thread. A filter that moves
 * work to another thread must call it back on {@link RequestContext#eventLoop()}. Each request holds
 * a place in its upstream's bulkhead until it fails or its response body ends; completing the
 * returned stage from outside (a filter's timeout) cancels the upstream call and gives the place back.
 */
public final class ProxyHandler implements Handler {
    private final Function<HttpRequest, GuardedUpstream> upstreams;
    final PathRewrite path;
    final HostRewrite host;
    final HeaderRules requestHeaders;
    final HeaderRules responseHeaders;
    final ForwardingOptions forwarding;
    final ClientTimeouts timeouts;
    final RetryPolicy retry;
    final RetryBudget budget;
    final WebSocketProxyOptions webSocket;
    final String name;

    private ProxyHandler(Builder builder) {
        this.upstreams = builder.upstreams;
        this.path = builder.path;
        this.host = builder.host;
        this.requestHeaders = builder.requestHeaders;
        this.responseHeaders = builder.responseHeaders;
        this.forwarding = builder.forwarding;
        this.timeouts = builder.timeouts;
        this.retry = builder.retry;
        this.budget = new RetryBudget(retry);
        this.webSocket = builder.webSocket;
        this.name = builder.name;
    }

    /** A proxy to the upstream with the default policies. */
    public static ProxyHandler to(GuardedUpstream upstream) {
        return builder(upstream).build();
    }

    /** A builder for a proxy to one upstream. */
    public static Builder builder(GuardedUpstream upstream) {
        requireNonNull(upstream, "upstream");
        return new Builder(request -> upstream);
    }

    /**
     * A builder for a proxy that picks the upstream per request from its head (method, target,
     * headers), before any of the body is read; {@code null} answers 503.
     */
    public static Builder builder(Function<HttpRequest, GuardedUpstream> upstreams) {
        return new Builder(requireNonNull(upstreams, "upstreams"));
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) {
        if (webSocket.enabled()
                && WebSocketUpgrades.isHandshake(request)
                && !webSocket.allowsOrigin(request.headers().get("origin"))) {
            return CompletableFuture.failedFuture(
                    ProxyFailures.originRefused(request.headers().get("origin")));
        }
        GuardedUpstream upstream = upstreams.apply(request);
        if (upstream == null) {
            return refused(request, ProxyFailures.noUpstream());
        }
        if (!upstream.tryAdmit()) {
            return upstream.shedAnswer(GrpcCalls.isGrpc(request));
        }
        if (!upstream.tryEnter()) {
            upstream.leaveLimit();
            return refused(request, ProxyFailures.busy(upstream.upstream().name()));
        }
        budget.deposit();
        if (!GrpcCalls.isGrpc(request)) {
            return proxy(ctx, request, upstream, timeouts, null);
        }
        ClientTimeouts configured =
                timeouts != null ? timeouts : upstream.client().options().timeouts();
        return GrpcCalls.answer(proxy(ctx, request, upstream, configured, GrpcDeadline.of(ctx, request)));
    }

    private CompletableFuture<HttpResponse> proxy(
            RequestContext ctx,
            HttpRequest request,
            GuardedUpstream upstream,
            ClientTimeouts callTimeouts,
            GrpcDeadline deadline) {
        HttpBody body = request.body();
        boolean replayable = isReplayable(body);
        if (replayable || !fitsReplayBuffer(body)) {
            return new ProxyCall(this, ctx, request, upstream, replayable, callTimeouts, deadline).start();
        }
        return new ProxyCall(this, ctx, request, upstream, true, callTimeouts, deadline)
                .startBuffered(retry.replayBufferSize());
    }

    private static CompletableFuture<HttpResponse> refused(HttpRequest request, HttpStatusException refusal) {
        return GrpcCalls.isGrpc(request)
                ? CompletableFuture.completedFuture(GrpcCalls.status(refusal))
                : CompletableFuture.failedFuture(refusal);
    }

    private static boolean isReplayable(HttpBody body) {
        return body instanceof FixedBody || body.contentLength() == 0;
    }

    private boolean fitsReplayBuffer(HttpBody body) {
        long length = body.contentLength();
        return retry.maxAttempts() > 1 && length > 0 && length <= retry.replayBufferSize();
    }

    /** Builds a {@link ProxyHandler}; not thread-safe. */
    public static final class Builder {
        private final Function<HttpRequest, GuardedUpstream> upstreams;
        private PathRewrite path = PathRewrite.none();
        private HostRewrite host = HostRewrite.keep();
        private HeaderRules requestHeaders = HeaderRules.none();
        private HeaderRules responseHeaders = HeaderRules.none();
        private ForwardingOptions forwarding = ForwardingOptions.ofDefault();
        private ClientTimeouts timeouts;
        private RetryPolicy retry = RetryPolicy.ofDefault();
        private WebSocketProxyOptions webSocket = WebSocketProxyOptions.ofDefault();
        private String name = "";

        private Builder(Function<HttpRequest, GuardedUpstream> upstreams) {
            this.upstreams = upstreams;
        }

        /** Sets how the upstream path is made (default: unchanged). */
        public Builder path(PathRewrite path) {
            this.path = requireNonNull(path, "path");
            return this;
        }

        /** Sets which {@code Host} the upstream sees (default: the client's). */
        public Builder host(HostRewrite host) {
            this.host = requireNonNull(host, "host");
            return this;
        }

        /** Sets the rules applied to request headers on the way up. */
        public Builder requestHeaders(HeaderRules rules) {
            this.requestHeaders = requireNonNull(rules, "requestHeaders");
            return this;
        }

        /** Sets the rules applied to response headers on the way down. */
        public Builder responseHeaders(HeaderRules rules) {
            this.responseHeaders = requireNonNull(rules, "responseHeaders");
            return this;
        }

        /** Sets the forwarding headers policy. */
        public Builder forwarding(ForwardingOptions forwarding) {
            this.forwarding = requireNonNull(forwarding, "forwarding");
            return this;
        }

        /** Sets the upstream call's timeouts (default: those of the upstream's client). */
        public Builder timeouts(ClientTimeouts timeouts) {
            this.timeouts = requireNonNull(timeouts, "timeouts");
            return this;
        }

        /** Sets the retry policy (default {@link RetryPolicy#ofDefault()}). */
        public Builder retry(RetryPolicy retry) {
            this.retry = requireNonNull(retry, "retry");
            return this;
        }

        /** Sets how WebSocket upgrades are proxied (default {@link WebSocketProxyOptions#ofDefault()}: they are). */
        public Builder webSocket(WebSocketProxyOptions webSocket) {
            this.webSocket = requireNonNull(webSocket, "webSocket");
            return this;
        }

        /** Sets the name the {@link ProxyObserver} reports this proxy's WebSocket sessions under (a route's name). */
        public Builder name(String name) {
            this.name = requireNonNull(name, "name");
            return this;
        }

        /** The handler. */
        public ProxyHandler build() {
            return new ProxyHandler(this);
        }
    }
}
