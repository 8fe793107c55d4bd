package io.parry.server;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpMethod;
import java.net.InetSocketAddress;
import java.time.Instant;

/**
 * What happened to one request: an immutable snapshot that a {@link RequestListener} receives when the
 * request ends, safe to keep and to pass to other threads. Facts the server could not know are
 * {@code null} (or 0, or -1 where said): a request refused before its head could be read has no method
 * or path, and one no router matched has no route.
 */
public final class RequestLog {
    private final HttpMethod method;
    private final String path;
    private final String query;
    private final String route;
    private final int status;
    private final boolean completed;
    private final long bytesIn;
    private final long bytesOut;
    private final Instant start;
    private final long durationNanos;
    private final String upstream;
    private final long upstreamNanos;
    private final String traceId;
    private final String spanId;
    private final String requestId;
    private final String userAgent;
    private final String referer;
    private final InetSocketAddress remoteAddress;
    private final String protocol;
    private final EndedBy endedBy;

    private RequestLog(Builder builder) {
        this.method = builder.method;
        this.path = builder.path;
        this.query = builder.query;
        this.route = builder.route;
        this.status = builder.status;
        this.completed = builder.completed;
        this.bytesIn = builder.bytesIn;
        this.bytesOut = builder.bytesOut;
        this.start = builder.start;
        this.durationNanos = builder.durationNanos;
        this.upstream = builder.upstream;
        this.upstreamNanos = builder.upstreamNanos;
        this.traceId = builder.traceId;
        this.spanId = builder.spanId;
        this.requestId = builder.requestId;
        this.userAgent = builder.userAgent;
        this.referer = builder.referer;
        this.remoteAddress = builder.remoteAddress;
        this.protocol = builder.protocol;
        this.endedBy = builder.endedBy;
    }

    /**
     * A builder, for servers and for tests of listeners. Defaults: no method, path or route, status 0,
     * not completed, no bytes, start at the epoch, no upstream ({@code upstreamNanos} -1), protocol
     * {@code HTTP/1.1}.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** The request method, or {@code null} when the request line could not be read. */
    public HttpMethod method() {
        return method;
    }

    /** The normalised path as received, for example {@code /todos/42}; {@code null} when unknown. */
    public String path() {
        return path;
    }

    /** The raw query after {@code ?}, empty when there was none; {@code null} when unknown. */
    public String query() {
        return query;
    }

    /**
     * The route pattern that matched, for example {@code /todos/{id}}, or {@code /api/**} for a handler
     * mounted at {@code /api}; {@code null} when no router matched (a 404, or a request the server
     * refused).
     */
    public String route() {
        return route;
    }

    /** The status sent; 0 when no response was sent (the connection broke first). */
    public int status() {
        return status;
    }

    /** Whether the response was written in full; false when the connection broke or the body failed. */
    public boolean completed() {
        return completed;
    }

    /** The request body bytes received (after chunked decoding). */
    public long bytesIn() {
        return bytesIn;
    }

    /** The response body bytes written (without the head and chunk framing). */
    public long bytesOut() {
        return bytesOut;
    }

    /** The wall-clock time the request head was received. */
    public Instant start() {
        return start;
    }

    /** Nanoseconds from the request head to the last response byte (or to the failure). */
    public long durationNanos() {
        return durationNanos;
    }

    /** The upstream that answered, for example {@code todo/127.0.0.1:9000}, or {@code null}. */
    public String upstream() {
        return upstream;
    }

    /** Nanoseconds spent waiting on upstreams (summed over attempts, until each response head), or -1 when none. */
    public long upstreamNanos() {
        return upstreamNanos;
    }

    /** The trace id, or {@code null} when the server traces nothing and no one asked for the trace. */
    public String traceId() {
        return traceId;
    }

    /** The server's span id for this request, or {@code null} along with {@link #traceId()}. */
    public String spanId() {
        return spanId;
    }

    /** The request id, as in {@link RequestContext#requestId()}. */
    public String requestId() {
        return requestId;
    }

    /** The {@code User-Agent} field, or {@code null}. */
    public String userAgent() {
        return userAgent;
    }

    /** The {@code Referer} field, or {@code null}. */
    public String referer() {
        return referer;
    }

    /** The client's address (the peer of the TCP connection). */
    public InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    /** The protocol version, for example {@code HTTP/1.1}. */
    public String protocol() {
        return protocol;
    }

    /**
     * Which side ended the exchange when it did not end normally (the client, an upstream, the server),
     * or {@code null} when it ended normally or no one could tell.
     */
    public EndedBy endedBy() {
        return endedBy;
    }

    @Override
    public String toString() {
        return "RequestLog(" + method + " " + path + " -> " + status + (completed ? "" : " incomplete") + ", "
                + durationNanos + " ns, " + requestId + ")";
    }

    /** Builds a {@link RequestLog}; not thread-safe. */
    public static final class Builder {
        private HttpMethod method;
        private String path;
        private String query;
        private String route;
        private int status;
        private boolean completed;
        private long bytesIn;
        private long bytesOut;
        private Instant start = Instant.EPOCH;
        private long durationNanos;
        private String upstream;
        private long upstreamNanos = -1;
        private String traceId;
        private String spanId;
        private String requestId;
        private String userAgent;
        private String referer;
        private InetSocketAddress remoteAddress;
        private String protocol = "HTTP/1.1";
        private EndedBy endedBy;

        private Builder() {}

        /** Sets the method; {@code null} when unknown. */
        public Builder method(HttpMethod method) {
            this.method = method;
            return this;
        }

        /** Sets the path; {@code null} when unknown. */
        public Builder path(String path) {
            this.path = path;
            return this;
        }

        /** Sets the raw query; {@code null} when unknown. */
        public Builder query(String query) {
            this.query = query;
            return this;
        }

        /** Sets the route pattern; {@code null} when none matched. */
        public Builder route(String route) {
            this.route = route;
            return this;
        }

        /** Sets the status sent; 0 for none. */
        public Builder status(int status) {
            this.status = status;
            return this;
        }

        /** Sets whether the response was written in full. */
        public Builder completed(boolean completed) {
            this.completed = completed;
            return this;
        }

        /** Sets the request body bytes received. */
        public Builder bytesIn(long bytesIn) {
            this.bytesIn = bytesIn;
            return this;
        }

        /** Sets the response body bytes written. */
        public Builder bytesOut(long bytesOut) {
            this.bytesOut = bytesOut;
            return this;
        }

        /** Sets when the request head was received. */
        public Builder start(Instant start) {
            this.start = requireNonNull(start, "start");
            return this;
        }

        /** Sets the nanoseconds from the request head to the end. */
        public Builder durationNanos(long durationNanos) {
            this.durationNanos = durationNanos;
            return this;
        }

        /** Sets the upstream that answered; {@code null} for none. */
        public Builder upstream(String upstream) {
            this.upstream = upstream;
            return this;
        }

        /** Sets the nanoseconds spent waiting on upstreams; -1 for none. */
        public Builder upstreamNanos(long upstreamNanos) {
            this.upstreamNanos = upstreamNanos;
            return this;
        }

        /** Sets the trace id and span id; {@code null} for none. */
        public Builder trace(String traceId, String spanId) {
            this.traceId = traceId;
            this.spanId = spanId;
            return this;
        }

        /** Sets the request id. */
        public Builder requestId(String requestId) {
            this.requestId = requestId;
            return this;
        }

        /** Sets the {@code User-Agent}; {@code null} for none. */
        public Builder userAgent(String userAgent) {
            this.userAgent = userAgent;
            return this;
        }

        /** Sets the {@code Referer}; {@code null} for none. */
        public Builder referer(String referer) {
            this.referer = referer;
            return this;
        }

        /** Sets the client's address. */
        public Builder remoteAddress(InetSocketAddress remoteAddress) {
            this.remoteAddress = remoteAddress;
            return this;
        }

        /** Sets the protocol version. */
        public Builder protocol(String protocol) {
            this.protocol = requireNonNull(protocol, "protocol");
            return this;
        }

        /** Sets which side ended the exchange; {@code null} when it ended normally. */
        public Builder endedBy(EndedBy endedBy) {
            this.endedBy = endedBy;
            return this;
        }

        /** The snapshot. */
        public RequestLog build() {
            return new RequestLog(this);
        }
    }
}
