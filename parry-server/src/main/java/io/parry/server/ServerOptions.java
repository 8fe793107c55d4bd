package io.parry.server;

import static java.util.Objects.requireNonNull;

import io.parry.transport.TransportKind;
import java.util.Arrays;
import java.util.Optional;

/**
 * How a {@link Server} listens and what it allows: listener address, event loops, transport,
 * {@link RequestLimits}, {@link ServerTimeouts}, {@link WorkerOptions}, {@link PathNormalization},
 * whether requests are traced, and {@link TlsOptions} for an HTTPS listener.
 *
 * <pre>{@code
 * ServerOptions options = ServerOptions.builder().port(8080).eventLoopThreads(2).build();
 * }</pre>
 */
public final class ServerOptions {
    private final String host;
    private final int port;
    private final int eventLoopThreads;
    private final TransportKind transport;
    private final RequestLimits limits;
    private final ServerTimeouts timeouts;
    private final WorkerOptions workers;
    private final PathNormalization pathNormalization;
    private final boolean tracing;
    private final TlsOptions tls;
    private final Http2Options http2;

    private ServerOptions(Builder builder) {
        this.host = builder.host;
        this.port = builder.port;
        this.eventLoopThreads = builder.eventLoopThreads;
        this.transport = builder.transport;
        this.limits = builder.limits;
        this.timeouts = builder.timeouts;
        this.workers = builder.workers;
        this.pathNormalization = builder.pathNormalization;
        this.tracing = builder.tracing;
        this.tls = builder.tls;
        this.http2 = builder.http2;
    }

    /** The defaults: all interfaces, port 8080, one event loop per core, automatic transport. */
    public static ServerOptions ofDefault() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder()
                .host(host)
                .port(port)
                .eventLoopThreads(eventLoopThreads)
                .transport(transport)
                .limits(limits)
                .timeouts(timeouts)
                .workers(workers)
                .pathNormalization(pathNormalization)
                .tracing(tracing)
                .tls(tls)
                .http2(http2);
    }

    /** The address to listen on; {@code 0.0.0.0} for every interface. */
    public String host() {
        return host;
    }

    /** The port to listen on; 0 for any free port ({@link Server#port()} tells which). */
    public int port() {
        return port;
    }

    /** The number of event-loop threads. */
    public int eventLoopThreads() {
        return eventLoopThreads;
    }

    /** The socket transport asked for. */
    public TransportKind transport() {
        return transport;
    }

    /** The request and connection limits. */
    public RequestLimits limits() {
        return limits;
    }

    /** The timeouts. */
    public ServerTimeouts timeouts() {
        return timeouts;
    }

    /** The worker executor for blocking handlers. */
    public WorkerOptions workers() {
        return workers;
    }

    /** How request paths are read before routing. */
    public PathNormalization pathNormalization() {
        return pathNormalization;
    }

    /** Whether requests are traced and their ids put in the SLF4J MDC; see {@link Builder#tracing(boolean)}. */
    public boolean tracing() {
        return tracing;
    }

    /** The listener's TLS; empty for a cleartext listener (the default). */
    public Optional<TlsOptions> tls() {
        return Optional.ofNullable(tls);
    }

    /** How the server speaks HTTP/2. */
    public Http2Options http2() {
        return http2;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ServerOptions that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "ServerOptions{host=" + host + ", port=" + port + ", eventLoopThreads=" + eventLoopThreads
                + ", transport=" + transport + ", limits=" + limits + ", timeouts=" + timeouts + ", workers=" + workers
                + ", pathNormalization=" + pathNormalization + ", tracing=" + tracing + ", tls=" + tls + ", http2="
                + http2 + "}";
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {
            host, port, eventLoopThreads, transport, limits, timeouts, workers, pathNormalization, tracing, tls, http2
        };
    }

    /** Builds {@link ServerOptions}; not thread-safe. */
    public static final class Builder {
        private String host = "0.0.0.0";
        private int port = 8080;
        private int eventLoopThreads = Runtime.getRuntime().availableProcessors();
        private TransportKind transport = TransportKind.AUTO;
        private RequestLimits limits = RequestLimits.ofDefault();
        private ServerTimeouts timeouts = ServerTimeouts.ofDefault();
        private WorkerOptions workers = WorkerOptions.ofDefault();
        private PathNormalization pathNormalization = PathNormalization.ofDefault();
        private boolean tracing = true;
        private TlsOptions tls;
        private Http2Options http2 = Http2Options.ofDefault();

        private Builder() {}

        /** Sets the address to listen on. */
        public Builder host(String host) {
            this.host = requireNonNull(host, "host");
            return this;
        }

        /** Sets the port; 0 picks a free one. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Sets the number of event-loop threads. */
        public Builder eventLoopThreads(int threads) {
            this.eventLoopThreads = threads;
            return this;
        }

        /** Sets the socket transport. */
        public Builder transport(TransportKind transport) {
            this.transport = requireNonNull(transport, "transport");
            return this;
        }

        /** Sets the request and connection limits. */
        public Builder limits(RequestLimits limits) {
            this.limits = requireNonNull(limits, "limits");
            return this;
        }

        /** Sets the timeouts. */
        public Builder timeouts(ServerTimeouts timeouts) {
            this.timeouts = requireNonNull(timeouts, "timeouts");
            return this;
        }

        /** Sets the worker executor options. */
        public Builder workers(WorkerOptions workers) {
            this.workers = requireNonNull(workers, "workers");
            return this;
        }

        /**
         * Sets how request paths are read before anything routes them (default {@link
         * PathNormalization#ofDefault()}: encoded slashes and {@code ;} parameters refused with 400).
         */
        public Builder pathNormalization(PathNormalization pathNormalization) {
            this.pathNormalization = requireNonNull(pathNormalization, "pathNormalization");
            return this;
        }

        /**
         * Whether to trace requests (default true): take each request's trace from its W3C
         * {@code traceparent} or B3 fields, or start one, before the handler runs, and put the ids in
         * the SLF4J MDC as {@code traceId}, {@code spanId} and {@code requestId} while Parry runs code
         * for the request, removing them after. Off, nothing is done per request for tracing, and
         * {@link RequestContext#traceContext()} works out the trace when first asked.
         */
        public Builder tracing(boolean enabled) {
            this.tracing = enabled;
            return this;
        }

        /** Serves HTTPS with these TLS options; {@code null} for cleartext (the default). */
        public Builder tls(TlsOptions tls) {
            this.tls = tls;
            return this;
        }

        /**
         * Sets how the server speaks HTTP/2 (default {@link Http2Options#ofDefault()}: h2c by prior
         * knowledge on the cleartext port, no {@code Upgrade: h2c}).
         */
        public Builder http2(Http2Options http2) {
            this.http2 = requireNonNull(http2, "http2");
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if the port is out of range or the thread count not positive
         */
        public ServerOptions build() {
            Validation.port(port);
            Validation.positive("eventLoopThreads", eventLoopThreads);
            return new ServerOptions(this);
        }
    }
}
