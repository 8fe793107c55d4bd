package io.parry.client;

import static java.util.Objects.requireNonNull;

import io.parry.client.internal.DefaultHttpClient;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * A non-blocking, pooled HTTP/1.1 and HTTP/2 client with the same shape as a server handler: a
 * request in, a stage of a streaming response out. It speaks the version its options say ({@link
 * ClientOptions#protocol()}), TLS to {@linkplain Endpoint#secure() secure endpoints} ({@link
 * ClientOptions#tls()}); the calls, responses and failures are the same whatever the protocol.
 *
 * <p>A call made on a Parry server's event loop runs on that loop, connection and all, so a proxied
 * exchange never changes thread; calls from any other thread use the client's own event loops,
 * started on first use. The returned stage completes on the connection's event loop when the
 * response headers arrive. The response body then streams with backpressure: the caller must read it
 * to the end or cancel its subscription, which returns the connection to the pool or closes it.
 *
 * <p>A call made for a Parry server's request (while its context is current) carries that request's
 * trace, in a span of its own ({@link ClientOptions.Builder#tracing(boolean)}), and its stage completes
 * with the request's context current again, so stages chained on it, and on its response body's
 * signals, see {@code RequestContext.current()} and the request's {@code traceId}, {@code spanId} and
 * {@code requestId} in the SLF4J MDC.
 *
 * <pre>{@code
 * try (HttpClient client = HttpClient.ofDefault()) {
 *     HttpResponse response = client.send(Endpoint.of("127.0.0.1", 8080), HttpRequest.of(HttpMethod.GET, "/"))
 *             .toCompletableFuture().join();
 *     String text = response.body().aggregate(1 << 20).toCompletableFuture().join().toStringUtf8();
 * }
 * }</pre>
 *
 * Failures are {@link ClientException}s: {@link UpstreamConnectException}, {@link
 * LocalResourceException}, {@link PoolExhaustedException}, {@link ConnectionClosedException}, {@link
 * InvalidResponseException} and the {@link ClientTimeoutException} kinds.
 */
public interface HttpClient extends ClientSender, AutoCloseable {

    /** A client with default options and no filters; close it when done. */
    static HttpClient ofDefault() {
        return builder().build();
    }

    /** A builder for a client with options and filters. */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Sends the request to the endpoint with the client's default timeouts. The request's {@code
     * Host} header is kept if present and set to the endpoint's authority otherwise.
     */
    @Override
    CompletionStage<HttpResponse> send(Endpoint endpoint, HttpRequest request);

    /** Sends the request to the endpoint with these timeouts instead of the defaults. */
    CompletionStage<HttpResponse> send(Endpoint endpoint, HttpRequest request, ClientTimeouts timeouts);

    /**
     * Sends the request to the endpoint with these timeouts, telling {@code written} when the request
     * left in full (see {@link RequestWritten}): the time from then to the response is the upstream's
     * alone, without a wait for a pooled connection or for the body's source. A client that cannot
     * tell (this default) sends the request and never calls it.
     */
    default CompletionStage<HttpResponse> send(
            Endpoint endpoint, HttpRequest request, ClientTimeouts timeouts, RequestWritten written) {
        return send(endpoint, request, timeouts);
    }

    /**
     * Sends a request whose target is an absolute {@code http://host:port/path} or {@code
     * https://host:port/path} URL to that host.
     *
     * @throws IllegalArgumentException if the target is not an absolute {@code http} or {@code https} URL
     */
    CompletionStage<HttpResponse> send(HttpRequest request);

    /** The pool counts of the endpoint, summed over event loops; all zero for an unknown endpoint. */
    PoolStats poolStats(Endpoint endpoint);

    /** The options the client was built with. */
    ClientOptions options();

    /**
     * Closes every pooled connection and stops the client's own event loops; calls still in flight
     * fail with {@link ConnectionClosedException}. Further calls fail with {@link IllegalStateException}.
     * Its {@link WebSocket}s close too: each sends a close frame with {@code 1001}, going away (RFC 6455,
     * section 7.4.1), and its connection closes on the peer's answer, or after its close timeout, 2 seconds
     * at most ({@link WebSocketClient.Builder#closeTimeout}); called off an event loop, this waits for that
     * (5 seconds at most in all). A connection whose {@code 101} was handed to another owner (the proxy's
     * WebSocket relay) is that owner's to close. The TLS context is freed once the last connection that uses
     * it has ended.
     */
    @Override
    void close();

    /** Builds an {@link HttpClient}; not thread-safe. */
    final class Builder {
        private ClientOptions options = ClientOptions.ofDefault();
        private final List<ClientFilter> filters = new ArrayList<>();

        private Builder() {}

        /** Sets the options. */
        public Builder options(ClientOptions options) {
            this.options = requireNonNull(options, "options");
            return this;
        }

        /** Adds a filter; the first added is the outermost, the first to see each call. */
        public Builder filter(ClientFilter filter) {
            filters.add(requireNonNull(filter, "filter"));
            return this;
        }

        /** The client. */
        public HttpClient build() {
            return new DefaultHttpClient(options, List.copyOf(filters));
        }
    }
}
