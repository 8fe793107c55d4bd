package io.parry.client;

import static java.util.Objects.requireNonNull;

import io.parry.transport.TransportKind;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;

/**
 * How an {@link HttpClient} connects, pools and waits, and how large a response head it accepts.
 *
 * <ul>
 *   <li>{@code pool}: connection pooling per endpoint ({@link PoolOptions});
 *   <li>{@code timeouts}: the default timeouts of each call ({@link ClientTimeouts});
 *   <li>{@code maxResponseHeadersSize}: bytes of response header fields (default 64 KiB); more fails
 *       the call with {@link InvalidResponseException};
 *   <li>{@code maxInitialLineLength}: bytes of the status line (default 8 KiB);
 *   <li>{@code transport}: the transport of the client's own event loops (default {@code AUTO});
 *   <li>{@code eventLoopThreads}: how many event loops the client starts for calls made off any
 *       event loop (default: the number of processors). Calls made on a Parry server's event loop use
 *       that loop and start nothing;
 *   <li>{@code tracing}: whether calls carry a trace (default true), see {@link Builder#tracing(boolean)};
 *   <li>{@code nameServers}: the DNS servers that resolve endpoint names (default: the system's, from
 *       {@code /etc/resolv.conf}); {@code /etc/hosts} is read first either way. Resolution counts
 *       towards the connect timeout;
 *   <li>{@code protocol}: the HTTP version spoken to endpoints (default {@link ClientProtocol#HTTP1});
 *   <li>{@code tls}: how TLS is spoken to {@linkplain Endpoint#secure() secure endpoints} (default:
 *       verified against the system's trust store, see {@link ClientTlsOptions}).
 * </ul>
 */
public final class ClientOptions {
    private static final ClientOptions DEFAULTS = builder().build();

    private final PoolOptions pool;
    private final ClientTimeouts timeouts;
    private final int maxResponseHeadersSize;
    private final int maxInitialLineLength;
    private final TransportKind transport;
    private final int eventLoopThreads;
    private final boolean tracing;
    private final List<InetSocketAddress> nameServers;
    private final ClientProtocol protocol;
    private final ClientTlsOptions tls;

    private ClientOptions(Builder builder) {
        this.pool = builder.pool;
        this.timeouts = builder.timeouts;
        this.maxResponseHeadersSize = builder.maxResponseHeadersSize;
        this.maxInitialLineLength = builder.maxInitialLineLength;
        this.transport = builder.transport;
        this.eventLoopThreads = builder.eventLoopThreads;
        this.tracing = builder.tracing;
        this.nameServers = builder.nameServers;
        this.protocol = builder.protocol;
        this.tls = builder.tls;
    }

    /** The defaults. */
    public static ClientOptions ofDefault() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder()
                .pool(pool)
                .timeouts(timeouts)
                .maxResponseHeadersSize(maxResponseHeadersSize)
                .maxInitialLineLength(maxInitialLineLength)
                .transport(transport)
                .eventLoopThreads(eventLoopThreads)
                .tracing(tracing)
                .nameServers(nameServers)
                .protocol(protocol)
                .tls(tls);
    }

    /** The pool options. */
    public PoolOptions pool() {
        return pool;
    }

    /** The default timeouts of each call. */
    public ClientTimeouts timeouts() {
        return timeouts;
    }

    /** The most bytes of response header fields. */
    public int maxResponseHeadersSize() {
        return maxResponseHeadersSize;
    }

    /** The most bytes of a status line. */
    public int maxInitialLineLength() {
        return maxInitialLineLength;
    }

    /** The transport of the client's own event loops. */
    public TransportKind transport() {
        return transport;
    }

    /** How many event loops the client starts when called off an event loop. */
    public int eventLoopThreads() {
        return eventLoopThreads;
    }

    /** Whether calls carry a trace; see {@link Builder#tracing(boolean)}. */
    public boolean tracing() {
        return tracing;
    }

    /** The DNS servers that resolve endpoint names; empty for the system's. */
    public List<InetSocketAddress> nameServers() {
        return nameServers;
    }

    /** The HTTP version spoken to endpoints. */
    public ClientProtocol protocol() {
        return protocol;
    }

    /** How TLS is spoken to secure endpoints. */
    public ClientTlsOptions tls() {
        return tls;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ClientOptions that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "ClientOptions{pool=" + pool + ", timeouts=" + timeouts + ", maxResponseHeadersSize="
                + maxResponseHeadersSize + ", maxInitialLineLength=" + maxInitialLineLength + ", transport=" + transport
                + ", eventLoopThreads=" + eventLoopThreads + ", tracing=" + tracing + ", nameServers=" + nameServers
                + ", protocol=" + protocol + ", tls=" + tls + "}";
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {
            pool,
            timeouts,
            maxResponseHeadersSize,
            maxInitialLineLength,
            transport,
            eventLoopThreads,
            tracing,
            nameServers,
            protocol,
            tls
        };
    }

    /** Builds {@link ClientOptions}; not thread-safe. */
    public static final class Builder {
        private PoolOptions pool = PoolOptions.ofDefault();
        private ClientTimeouts timeouts = ClientTimeouts.ofDefault();
        private int maxResponseHeadersSize = 64 * 1024;
        private int maxInitialLineLength = 8 * 1024;
        private TransportKind transport = TransportKind.AUTO;
        private int eventLoopThreads = Runtime.getRuntime().availableProcessors();
        private boolean tracing = true;
        private List<InetSocketAddress> nameServers = List.of();
        private ClientProtocol protocol = ClientProtocol.HTTP1;
        private ClientTlsOptions tls = ClientTlsOptions.ofDefault();

        private Builder() {}

        /** Sets the pool options. */
        public Builder pool(PoolOptions pool) {
            this.pool = requireNonNull(pool, "pool");
            return this;
        }

        /** Sets the default timeouts. */
        public Builder timeouts(ClientTimeouts timeouts) {
            this.timeouts = requireNonNull(timeouts, "timeouts");
            return this;
        }

        /** Sets the most bytes of response header fields. */
        public Builder maxResponseHeadersSize(int bytes) {
            this.maxResponseHeadersSize = bytes;
            return this;
        }

        /** Sets the most bytes of a status line. */
        public Builder maxInitialLineLength(int bytes) {
            this.maxInitialLineLength = bytes;
            return this;
        }

        /** Sets the transport of the client's own event loops. */
        public Builder transport(TransportKind transport) {
            this.transport = requireNonNull(transport, "transport");
            return this;
        }

        /** Sets how many event loops the client starts when called off an event loop. */
        public Builder eventLoopThreads(int threads) {
            this.eventLoopThreads = threads;
            return this;
        }

        /**
         * Whether calls carry a trace (default true). A request sent without usable trace fields gets
         * W3C {@code traceparent} (and B3 when the request being served arrived with B3) for a new span:
         * a child of the span of the Parry request the call is made for, when it is made while that
         * request's context is current (in its handler, blocking work, event-loop tasks, and the stages
         * Parry completes), else of a new trace. A request that carries trace fields is sent as it is,
         * and so is every request with tracing off, to keep trace ids from a third party, say.
         */
        public Builder tracing(boolean enabled) {
            this.tracing = enabled;
            return this;
        }

        /**
         * Sets the DNS servers that resolve endpoint names, tried in order; an empty list (the default)
         * uses the system's.
         */
        public Builder nameServers(List<InetSocketAddress> servers) {
            this.nameServers = List.copyOf(requireNonNull(servers, "servers"));
            return this;
        }

        /** Sets the HTTP version spoken to endpoints (default {@link ClientProtocol#HTTP1}). */
        public Builder protocol(ClientProtocol protocol) {
            this.protocol = requireNonNull(protocol, "protocol");
            return this;
        }

        /** Sets how TLS is spoken to secure endpoints. */
        public Builder tls(ClientTlsOptions tls) {
            this.tls = requireNonNull(tls, "tls");
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if a value is out of range
         */
        public ClientOptions build() {
            positive("maxResponseHeadersSize", maxResponseHeadersSize);
            positive("maxInitialLineLength", maxInitialLineLength);
            positive("eventLoopThreads", eventLoopThreads);
            return new ClientOptions(this);
        }

        private static void positive(String name, int value) {
            if (value < 1) {
                throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
            }
        }
    }
}
