package io.parry.server.websocket;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A WebSocket endpoint (RFC 6455): a {@link Handler} that checks the opening handshake, then lets a
 * {@link WebSocketHandler} accept it (101, and a {@link WebSocketSession}) or refuse it. A route like
 * any other: the router's conditions, filters, tracing and the access log apply to the handshake, which
 * the access log shows with status 101 once the session opened.
 *
 * <p>The endpoint answers a request that is not a valid handshake itself: 426 when it does not ask for
 * WebSocket version 13 over HTTP/1.1, 400 for a malformed key, and 403 for an {@code Origin} its
 * options do not allow. Each is counted in {@link #counters()}.
 *
 * <pre>{@code
 * WebSocketEndpoint echo = WebSocketEndpoint.of(options, (ctx, handshake) -> handshake
 *         .accept(session -> session.messages().subscribe(new EchoSubscriber(session)))
 *         .toStage());
 * Router.builder().get("/ws/echo", echo).build();
 * }</pre>
 */
public final class WebSocketEndpoint implements Handler {
    private final WebSocketOptions options;
    private final WebSocketHandler handler;
    private final WebSocketCounters counters = new WebSocketCounters();

    private WebSocketEndpoint(WebSocketOptions options, WebSocketHandler handler) {
        this.options = requireNonNull(options, "options");
        this.handler = requireNonNull(handler, "handler");
    }

    /** An endpoint with the default options. */
    public static WebSocketEndpoint of(WebSocketHandler handler) {
        return new WebSocketEndpoint(WebSocketOptions.ofDefault(), handler);
    }

    /** An endpoint with these options. */
    public static WebSocketEndpoint of(WebSocketOptions options, WebSocketHandler handler) {
        return new WebSocketEndpoint(options, handler);
    }

    /** The endpoint's options. */
    public WebSocketOptions options() {
        return options;
    }

    /** The endpoint's counters, for metrics. */
    public WebSocketCounters counters() {
        return counters;
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) {
        HttpResponse refusal = Handshakes.refusal(ctx, request, options);
        if (refusal != null) {
            counters.refusedHandshake();
            return CompletableFuture.completedFuture(refusal);
        }
        return handler.handshake(ctx, new WebSocketHandshake(ctx, request, this));
    }

    @Override
    public String toString() {
        return "WebSocketEndpoint" + options;
    }
}
