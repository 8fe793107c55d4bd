package io.parry.client;

import static java.util.Objects.requireNonNull;

import io.parry.client.internal.WebSocketHandshake;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Opens WebSocket connections (RFC 6455) with an {@link HttpClient}: the handshake is an ordinary call
 * through the client's filters, connect timeout and name resolution, whose {@code 101} takes the
 * connection out of the pool. The {@code 101} is accepted only when its {@code Sec-WebSocket-Accept}
 * answers the request's key; anything else fails the stage with {@link InvalidResponseException}, and
 * a final response other than {@code 101} fails it with {@link WebSocketRefusedException}.
 *
 * <pre>{@code
 * WebSocketClient ws = WebSocketClient.builder(httpClient).maxMessageSize(1 << 20).build();
 * WebSocket socket = ws.connect(Endpoint.parse("127.0.0.1:8080"), "/ws/echo").toCompletableFuture().join();
 * }</pre>
 */
public final class WebSocketClient {
    private final HttpClient client;
    private final int maxMessageSize;
    private final Duration closeTimeout;

    private WebSocketClient(Builder builder) {
        this.client = builder.client;
        this.maxMessageSize = builder.maxMessageSize;
        this.closeTimeout = builder.closeTimeout;
    }

    /** A WebSocket client on this HTTP client, with messages of up to 1 MiB and a close timeout of 5 seconds. */
    public static WebSocketClient of(HttpClient client) {
        return builder(client).build();
    }

    /** A builder for a WebSocket client on this HTTP client. */
    public static Builder builder(HttpClient client) {
        return new Builder(requireNonNull(client, "client"));
    }

    /** Opens a connection to the target, a path and query, of the endpoint. */
    public CompletionStage<WebSocket> connect(Endpoint endpoint, String target) {
        return connect(endpoint, HttpRequest.of(HttpMethod.GET, requireNonNull(target, "target")));
    }

    /**
     * Opens a connection with this {@code GET} request, its header fields (an {@code Origin}, a {@code
     * Sec-WebSocket-Protocol}) kept, and the handshake's own fields set (RFC 6455, section 4.1).
     */
    public CompletionStage<WebSocket> connect(Endpoint endpoint, HttpRequest request) {
        requireNonNull(endpoint, "endpoint");
        requireNonNull(request, "request");
        return WebSocketHandshake.open(client, endpoint, request, maxMessageSize, closeTimeout);
    }

    /** Builds a {@link WebSocketClient}; not thread-safe. */
    public static final class Builder {
        private final HttpClient client;
        private int maxMessageSize = 1 << 20;
        private Duration closeTimeout = Duration.ofSeconds(5);

        private Builder(HttpClient client) {
            this.client = client;
        }

        /** Sets the largest message received, in bytes (default 1 MiB); a larger one closes with 1009. */
        public Builder maxMessageSize(int maxMessageSize) {
            if (maxMessageSize <= 0) {
                throw new IllegalArgumentException("maxMessageSize: " + maxMessageSize + " (expected: > 0)");
            }
            this.maxMessageSize = maxMessageSize;
            return this;
        }

        /**
         * Sets how long a close sent, the user's or the answer to the peer's, may wait for its write and for the
         * peer's answer before the socket is closed (default 5 seconds), so a peer that never reads or never answers
         * cannot hold the connection open. While its {@link HttpClient} closes, the wait is 2 seconds at most.
         */
        public Builder closeTimeout(Duration closeTimeout) {
            requireNonNull(closeTimeout, "closeTimeout");
            if (closeTimeout.isNegative() || closeTimeout.isZero()) {
                throw new IllegalArgumentException("closeTimeout: " + closeTimeout + " (expected: > 0)");
            }
            this.closeTimeout = closeTimeout;
            return this;
        }

        /** The client. */
        public WebSocketClient build() {
            return new WebSocketClient(this);
        }
    }
}
