package io.parry.client;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Arrays;

/**
 * How connections to one endpoint are pooled. A pool exists per endpoint and per event loop, like
 * NGINX's {@code keepalive} per worker, so a call and its connection stay on one thread and the pool
 * needs no lock; the limits below apply to each such pool.
 *
 * <ul>
 *   <li>{@code maxConnections}: open connections, in use or idle (default 4096: high, because a
 *       proxied request holds its connection until the upstream answers, and a slow upstream with
 *       many callers needs as many connections; limit load with a proxy bulkhead instead);
 *   <li>{@code maxPending}: calls waiting for a connection when all are in use; one more fails at once
 *       with {@link PoolExhaustedException} (default 1024);
 *   <li>{@code idleTimeout}: an idle connection is closed after this (default 60 s; zero keeps it);
 *   <li>{@code maxLifetime}: a connection is not reused after this age (default zero: no limit);
 *   <li>{@code abandonedDrain}: when a caller gives up on a call whose request went out in full (it
 *       cancelled, timed out, or its own client went away), the connection reads the rest of the
 *       response and drops it, if the body is at most this many bytes, and then goes back to the
 *       pool; a longer body or a response that ends the connection closes it (default 64 KiB; zero
 *       closes at once, as NGINX does);
 *   <li>{@code abandonedDrainTime}: how long such a response may take to end; after that, or after
 *       one of the call's own timeouts, the connection closes (default 1 s; zero closes at once). Callers that give up on a slow upstream then cost
 *       it no new connections when the next calls come;
 *   <li>{@code pingInterval}: an HTTP/2 connection that received nothing for this long is sent a PING,
 *       and closed when another interval passes without an answer, so a connection a middlebox
 *       dropped is found before a call needs it (default 30 s; zero sends none).
 * </ul>
 *
 * A pooled connection is handed out only if it is still open and has not received anything while
 * idle; one the upstream closed or wrote to is closed instead, so a call never fails because of a
 * connection that died while it sat in the pool.
 */
public final class PoolOptions {
    private static final PoolOptions DEFAULTS = builder().build();

    private final int maxConnections;
    private final int maxPending;
    private final Duration idleTimeout;
    private final Duration maxLifetime;
    private final int abandonedDrain;
    private final Duration abandonedDrainTime;
    private final Duration pingInterval;

    private PoolOptions(Builder builder) {
        this.maxConnections = builder.maxConnections;
        this.maxPending = builder.maxPending;
        this.idleTimeout = builder.idleTimeout;
        this.maxLifetime = builder.maxLifetime;
        this.abandonedDrain = builder.abandonedDrain;
        this.abandonedDrainTime = builder.abandonedDrainTime;
        this.pingInterval = builder.pingInterval;
    }

    /** The defaults. */
    public static PoolOptions ofDefault() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder()
                .maxConnections(maxConnections)
                .maxPending(maxPending)
                .idleTimeout(idleTimeout)
                .maxLifetime(maxLifetime)
                .abandonedDrain(abandonedDrain)
                .abandonedDrainTime(abandonedDrainTime)
                .pingInterval(pingInterval);
    }

    /** The most open connections per endpoint and event loop. */
    public int maxConnections() {
        return maxConnections;
    }

    /** The most calls waiting for a connection per endpoint and event loop. */
    public int maxPending() {
        return maxPending;
    }

    /** How long an idle connection is kept; zero keeps it. */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** The age after which a connection is not reused; zero for no limit. */
    public Duration maxLifetime() {
        return maxLifetime;
    }

    /** The longest response body read and dropped to keep an abandoned call's connection; zero closes it. */
    public int abandonedDrain() {
        return abandonedDrain;
    }

    /** How long an abandoned call's response may take to end before its connection closes; zero closes it. */
    public Duration abandonedDrainTime() {
        return abandonedDrainTime;
    }

    /** How long an HTTP/2 connection may receive nothing before it is sent a PING; zero sends none. */
    public Duration pingInterval() {
        return pingInterval;
    }

    @Override
    public String toString() {
        return "PoolOptions{maxConnections=" + maxConnections + ", maxPending=" + maxPending + ", idleTimeout="
                + idleTimeout + ", maxLifetime=" + maxLifetime + ", abandonedDrain=" + abandonedDrain
                + ", abandonedDrainTime=" + abandonedDrainTime + ", pingInterval=" + pingInterval + "}";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PoolOptions that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {
            maxConnections, maxPending, idleTimeout, maxLifetime, abandonedDrain, abandonedDrainTime, pingInterval
        };
    }

    /** Builds {@link PoolOptions}; not thread-safe. */
    public static final class Builder {
        private int maxConnections = 4096;
        private int maxPending = 1024;
        private Duration idleTimeout = Duration.ofSeconds(60);
        private Duration maxLifetime = Duration.ZERO;
        private int abandonedDrain = 64 * 1024;
        private Duration abandonedDrainTime = Duration.ofSeconds(1);
        private Duration pingInterval = Duration.ofSeconds(30);

        private Builder() {}

        /** Sets the most open connections per endpoint and event loop. */
        public Builder maxConnections(int maxConnections) {
            this.maxConnections = maxConnections;
            return this;
        }

        /** Sets the most calls waiting for a connection; zero fails a call at once when all are busy. */
        public Builder maxPending(int maxPending) {
            this.maxPending = maxPending;
            return this;
        }

        /** Sets how long an idle connection is kept; zero keeps it. */
        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = requireNonNull(idleTimeout, "idleTimeout");
            return this;
        }

        /** Sets the age after which a connection is not reused; zero for no limit. */
        public Builder maxLifetime(Duration maxLifetime) {
            this.maxLifetime = requireNonNull(maxLifetime, "maxLifetime");
            return this;
        }

        /** Sets the longest response body read and dropped to keep an abandoned call's connection; zero closes it. */
        public Builder abandonedDrain(int bytes) {
            this.abandonedDrain = bytes;
            return this;
        }

        /** Sets how long an abandoned call's response may take to end before its connection closes; zero closes it. */
        public Builder abandonedDrainTime(Duration abandonedDrainTime) {
            this.abandonedDrainTime = requireNonNull(abandonedDrainTime, "abandonedDrainTime");
            return this;
        }

        /** Sets how long an HTTP/2 connection may receive nothing before it is sent a PING; zero sends none. */
        public Builder pingInterval(Duration pingInterval) {
            this.pingInterval = requireNonNull(pingInterval, "pingInterval");
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if a value is out of range
         */
        public PoolOptions build() {
            if (maxConnections < 1) {
                throw new IllegalArgumentException("maxConnections: " + maxConnections + " (expected: > 0)");
            }
            if (maxPending < 0) {
                throw new IllegalArgumentException("maxPending: " + maxPending + " (expected: >= 0)");
            }
            if (idleTimeout.isNegative()) {
                throw new IllegalArgumentException("idleTimeout: " + idleTimeout + " (expected: >= 0)");
            }
            if (maxLifetime.isNegative()) {
                throw new IllegalArgumentException("maxLifetime: " + maxLifetime + " (expected: >= 0)");
            }
            if (abandonedDrain < 0) {
                throw new IllegalArgumentException("abandonedDrain: " + abandonedDrain + " (expected: >= 0)");
            }
            if (abandonedDrainTime.isNegative()) {
                throw new IllegalArgumentException("abandonedDrainTime: " + abandonedDrainTime + " (expected: >= 0)");
            }
            if (pingInterval.isNegative()) {
                throw new IllegalArgumentException("pingInterval: " + pingInterval + " (expected: >= 0)");
            }
            return new PoolOptions(this);
        }
    }
}
