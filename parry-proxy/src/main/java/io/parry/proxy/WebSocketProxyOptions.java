package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * How a {@link ProxyHandler} proxies WebSocket upgrades (RFC 6455): whether it does, the size limits
 * and timeouts of a proxied session, and the origins whose pages may open one.
 *
 * <p>After the upstream's {@code 101} the proxy relays frames, not bytes: each frame is decoded on one
 * side and encoded on the other with its opcode, FIN and RSV bits unchanged, so a permessage-deflate
 * frame passes compressed and the extension negotiated end to end still applies. Relaying frames lets
 * the proxy enforce the size limits (close {@code 1009}), answer a broken frame with {@code 1002}, and
 * close the other side with {@code 1001} when one side's connection breaks or the idle timeout expires,
 * instead of cutting it mid-frame.
 *
 * <pre>{@code
 * WebSocketProxyOptions ws = WebSocketProxyOptions.builder()
 *         .idleTimeout(Duration.ofMinutes(5))
 *         .allowedOrigins(Set.of("https://app.example"))
 *         .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class WebSocketProxyOptions {
    private static final WebSocketProxyOptions DEFAULTS = builder().build();
    private static final WebSocketProxyOptions DISABLED =
            builder().enabled(false).build();

    private final boolean enabled;
    private final int maxFrameSize;
    private final long maxMessageSize;
    private final Duration idleTimeout;
    private final Duration closeTimeout;
    private final Set<String> allowedOrigins;

    private WebSocketProxyOptions(Builder builder) {
        this.enabled = builder.enabled;
        this.maxFrameSize = builder.maxFrameSize;
        this.maxMessageSize = builder.maxMessageSize;
        this.idleTimeout = builder.idleTimeout;
        this.closeTimeout = builder.closeTimeout;
        this.allowedOrigins = builder.allowedOrigins;
    }

    /** The defaults: upgrades proxied, frames up to 1 MiB, messages up to 16 MiB, idle for up to an hour, any origin. */
    public static WebSocketProxyOptions ofDefault() {
        return DEFAULTS;
    }

    /** Upgrades refused: the {@code Upgrade} field is dropped like any hop-by-hop field. */
    public static WebSocketProxyOptions disabled() {
        return DISABLED;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder()
                .enabled(enabled)
                .maxFrameSize(maxFrameSize)
                .maxMessageSize(maxMessageSize)
                .idleTimeout(idleTimeout)
                .closeTimeout(closeTimeout)
                .allowedOrigins(allowedOrigins);
    }

    /** Whether a request with {@code Upgrade: websocket} is proxied as a WebSocket handshake (default true). */
    public boolean enabled() {
        return enabled;
    }

    /** The largest frame payload relayed, in bytes (default 1 MiB); a larger one closes its sender with 1009. */
    public int maxFrameSize() {
        return maxFrameSize;
    }

    /** The largest message relayed, its fragments summed, in bytes (default 16 MiB); closes with 1009. */
    public long maxMessageSize() {
        return maxMessageSize;
    }

    /** How long a session may pass no frame either way before both sides are closed with 1001 (default 1 hour; zero for never). */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** How long a close frame waits for its answer before the connections are closed (default 5 seconds). */
    public Duration closeTimeout() {
        return closeTimeout;
    }

    /**
     * The {@code Origin} values allowed to open a session, compared exactly (RFC 6454 serialisation,
     * such as {@code https://app.example}); a handshake from another origin is answered {@code 403}
     * without reaching the upstream. Empty (the default) allows any origin and requests without one.
     */
    public Set<String> allowedOrigins() {
        return allowedOrigins;
    }

    /** Whether a handshake with this {@code Origin} (or {@code null}) may be proxied. */
    public boolean allowsOrigin(String origin) {
        return allowedOrigins.isEmpty() || (origin != null && allowedOrigins.contains(origin));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WebSocketProxyOptions other
                && enabled == other.enabled
                && maxFrameSize == other.maxFrameSize
                && maxMessageSize == other.maxMessageSize
                && idleTimeout.equals(other.idleTimeout)
                && closeTimeout.equals(other.closeTimeout)
                && allowedOrigins.equals(other.allowedOrigins);
    }

    @Override
    public int hashCode() {
        return Objects.hash(enabled, maxFrameSize, maxMessageSize, idleTimeout, closeTimeout, allowedOrigins);
    }

    @Override
    public String toString() {
        return "WebSocketProxyOptions{enabled=" + enabled + ", maxFrameSize=" + maxFrameSize + ", maxMessageSize="
                + maxMessageSize + ", idleTimeout=" + idleTimeout + ", closeTimeout=" + closeTimeout
                + ", allowedOrigins=" + allowedOrigins + "}";
    }

    /** Builds {@link WebSocketProxyOptions}; not thread-safe. */
    public static final class Builder {
        private boolean enabled = true;
        private int maxFrameSize = 1 << 20;
        private long maxMessageSize = 16 << 20;
        private Duration idleTimeout = Duration.ofHours(1);
        private Duration closeTimeout = Duration.ofSeconds(5);
        private Set<String> allowedOrigins = Set.of();

        private Builder() {}

        /** Sets whether upgrades are proxied. */
        public Builder enabled(boolean enabled) {
            this.enabled = enabled;
            return this;
        }

        /** Sets the largest frame payload, in bytes. */
        public Builder maxFrameSize(int maxFrameSize) {
            this.maxFrameSize = maxFrameSize;
            return this;
        }

        /** Sets the largest message, in bytes. */
        public Builder maxMessageSize(long maxMessageSize) {
            this.maxMessageSize = maxMessageSize;
            return this;
        }

        /** Sets the idle timeout; zero for none. */
        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = requireNonNull(idleTimeout, "idleTimeout");
            return this;
        }

        /** Sets the close handshake timeout. */
        public Builder closeTimeout(Duration closeTimeout) {
            this.closeTimeout = requireNonNull(closeTimeout, "closeTimeout");
            return this;
        }

        /** Sets the allowed origins; empty for any. */
        public Builder allowedOrigins(Set<String> allowedOrigins) {
            this.allowedOrigins = Set.copyOf(requireNonNull(allowedOrigins, "allowedOrigins"));
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if a size is not positive, a message is smaller than a frame,
         *     or a timeout is negative (or the close timeout zero)
         */
        public WebSocketProxyOptions build() {
            if (maxFrameSize <= 0) {
                throw new IllegalArgumentException("maxFrameSize: " + maxFrameSize + " (expected: > 0)");
            }
            if (maxMessageSize < maxFrameSize) {
                throw new IllegalArgumentException(
                        "maxMessageSize: " + maxMessageSize + " (expected: >= maxFrameSize " + maxFrameSize + ")");
            }
            if (idleTimeout.isNegative()) {
                throw new IllegalArgumentException("idleTimeout: " + idleTimeout + " (expected: >= 0)");
            }
            if (closeTimeout.isNegative() || closeTimeout.isZero()) {
                throw new IllegalArgumentException("closeTimeout: " + closeTimeout + " (expected: > 0)");
            }
            return new WebSocketProxyOptions(this);
        }
    }
}
