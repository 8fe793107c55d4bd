package io.parry.proxy;

import io.parry.client.Endpoint;

/**
 * Told what a {@link GuardedUpstream} and the proxies using it do: each upstream attempt, retries,
 * circuit breaker transitions, refusals, and exchanges the downstream client ended. For metrics ({@code parry-micrometer}'s {@code
 * ProxyMetrics}) and logs; set it with {@link GuardedUpstream.Builder#observer(ProxyObserver)}.
 *
 * <p>Every method has a no-op default. They run on the event loop of the request they are about (a
 * breaker transition on the thread that caused it), so they must be quick and never block; an
 * exception thrown here fails the request being proxied. {@code upstream} is the name of the {@link
 * io.parry.client.upstream.Upstream}.
 */
public interface ProxyObserver {
    /** An observer that does nothing: the default. */
    ProxyObserver NONE = new ProxyObserver() {};

    /**
     * An attempt to an endpoint ended with a response head or a failure the upstream may have caused.
     * An attempt the downstream client ended is reported to {@link #clientEnded} instead.
     *
     * @param status the response status, or 0 when the attempt failed
     * @param failure why it failed (a {@link io.parry.client.ClientException} as a rule), or {@code
     *     null} when a response arrived
     * @param nanos the time from sending the request to the response head or the failure
     */
    default void attemptEnded(String upstream, Endpoint endpoint, int status, Throwable failure, long nanos) {}

    /**
     * The request will be tried again after the attempt to {@code endpoint} failed.
     *
     * @param reason the failed status code as text ({@code "503"}), or the simple class name of the
     *     failure ({@code "UpstreamConnectException"})
     */
    default void retried(String upstream, Endpoint endpoint, String reason) {}

    /** The circuit breaker of an endpoint changed state. */
    default void breakerTransition(String upstream, Endpoint endpoint, BreakerState from, BreakerState to) {}

    /** A request was refused before any attempt: answered 503 without reaching an endpoint. */
    default void rejected(String upstream, Refusal reason) {}

    /**
     * The downstream client ended a proxied exchange, not the upstream: nothing of it counted against the
     * upstream (breaker, outlier ejection, retry budget, {@link #attemptEnded}).
     */
    default void clientEnded(String upstream, ClientEnding ending) {}

    /**
     * A WebSocket session opened through the endpoint: it answered the handshake with {@code 101} and
     * frames flow. {@code route} is the proxy's {@link ProxyHandler.Builder#name name}, empty if it has
     * none.
     */
    default void webSocketOpened(String upstream, Endpoint endpoint, String route) {}

    /** A WebSocket session {@link #webSocketOpened} reported ended: either side closed it or broke. */
    default void webSocketClosed(String upstream, Endpoint endpoint, String route) {}

    /** Why a request was refused before any attempt. */
    enum Refusal {
        /** The upstream's bulkhead was full. */
        BULKHEAD_FULL,
        /** The upstream's adaptive concurrency limit was reached. */
        ADAPTIVE_LIMIT,
        /** No endpoint was healthy with a breaker that let the request pass. */
        NO_ENDPOINT,
        /**
         * This process could not open a connection to the chosen endpoint: out of file descriptors or
         * local ports. Not counted against the endpoint.
         */
        LOCAL_RESOURCES
    }

    /**
     * How the downstream client ended a proxied exchange: a small closed set, so it can tag a metric.
     * The request-body endings are the server's answers to the body: 400, 413 and 408.
     */
    enum ClientEnding {
        /** The request body broke HTTP/1.1 framing, a malformed chunk say (400). */
        MALFORMED_BODY,
        /** The request body grew past the server's limit (413). */
        BODY_TOO_LARGE,
        /** The request timeout expired while the request body was still arriving (408). */
        BODY_TIMEOUT,
        /** The client closed or reset its connection while sending the request body. */
        CLOSED_MID_BODY,
        /** The request body's source failed otherwise (a filter's body, or one shorter than declared). */
        BODY_FAILED,
        /**
         * Nobody waited for the answer any more: the client closed its connection before the response,
         * or a timeout answered first.
         */
        ABANDONED,
        /**
         * The response body was not taken in full: the client closed, read too slowly for the server's
         * write timeout or the upstream call's timeout, or the write to it failed.
         */
        STOPPED_READING
    }
}
