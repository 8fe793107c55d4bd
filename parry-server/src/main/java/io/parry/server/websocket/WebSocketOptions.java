package io.parry.server.websocket;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Arrays;
import java.util.Set;

/**
 * The limits, timeouts and extensions of a WebSocket endpoint's sessions. Sizes are in bytes; {@link
 * Duration#ZERO} disables a timeout.
 *
 * <ul>
 *   <li>{@code maxFrameSize}: the largest frame payload received (after inflating, for a compressed
 *       frame); a larger one closes the session with 1009. Default 1 MiB.
 *   <li>{@code maxMessageSize}: the largest message received, its frames together; a larger one closes
 *       the session with 1009. Bounds what a compressed message inflates to. Default 1 MiB.
 *   <li>{@code maxSendQueue}: the most bytes of sent frames that may wait for the client to take
 *       them; a send on top of more closes the session with 1008 and drops what waits (an application
 *       that sends without waiting for its stages, to a client that does not read). One message larger
 *       than this alone still leaves. Default 4 MiB.
 *   <li>{@code idleTimeout}: a session with no frame received or sent for this long is closed with 1001.
 *       A session paused by its slow reader is not idle. Default 5 minutes.
 *   <li>{@code closeTimeout}: how long the server waits for the client's close frame after sending its
 *       own, before it closes the connection. Default 5 seconds.
 *   <li>{@code pingInterval}: a ping is sent when nothing was received for this long, so a live client
 *       answers with a pong before the idle timeout; default {@code ZERO} (no pings).
 *   <li>{@code allowedOrigins}: the {@code Origin} values a handshake may carry (exact, as
 *       {@code scheme://host[:port]}); any other is refused with 403 (cross-site WebSocket hijacking). A
 *       handshake without {@code Origin} (not from a browser) is allowed. Empty, the default, allows any.
 *   <li>{@code deflate}: the permessage-deflate negotiation, {@link PerMessageDeflate#ofDefault()}.
 *   <li>{@code streamFragments}: deliver each received frame as it arrives ({@link
 *       WebSocketMessage#isLast()} marks a message's end) instead of whole messages; default {@code false}.
 * </ul>
 */
public final class WebSocketOptions {
    private static final WebSocketOptions DEFAULTS = builder().build();

    private final int maxFrameSize;
    private final int maxMessageSize;
    private final int maxSendQueue;
    private final Duration idleTimeout;
    private final Duration closeTimeout;
    private final Duration pingInterval;
    private final Set<String> allowedOrigins;
    private final PerMessageDeflate deflate;
    private final boolean streamFragments;

    private WebSocketOptions(Builder builder) {
        this.maxFrameSize = builder.maxFrameSize;
        this.maxMessageSize = builder.maxMessageSize;
        this.maxSendQueue = builder.maxSendQueue;
        this.idleTimeout = builder.idleTimeout;
        this.closeTimeout = builder.closeTimeout;
        this.pingInterval = builder.pingInterval;
        this.allowedOrigins = Set.copyOf(builder.allowedOrigins);
        this.deflate = builder.deflate;
        this.streamFragments = builder.streamFragments;
    }

    /** The defaults (see the class comment). */
    public static WebSocketOptions ofDefault() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder()
                .maxFrameSize(maxFrameSize)
                .maxMessageSize(maxMessageSize)
                .maxSendQueue(maxSendQueue)
                .idleTimeout(idleTimeout)
                .closeTimeout(closeTimeout)
                .pingInterval(pingInterval)
                .allowedOrigins(allowedOrigins)
                .deflate(deflate)
                .streamFragments(streamFragments);
    }

    /** The largest frame payload received, in bytes. */
    public int maxFrameSize() {
        return maxFrameSize;
    }

    /** The largest message received, in bytes. */
    public int maxMessageSize() {
        return maxMessageSize;
    }

    /** The most bytes of sent frames that may wait for the client, in bytes. */
    public int maxSendQueue() {
        return maxSendQueue;
    }

    /** The idle timeout. */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** The close handshake timeout. */
    public Duration closeTimeout() {
        return closeTimeout;
    }

    /** The keep-alive ping interval; {@code ZERO} for none. */
    public Duration pingInterval() {
        return pingInterval;
    }

    /** The allowed {@code Origin} values; empty allows any. */
    public Set<String> allowedOrigins() {
        return allowedOrigins;
    }

    /** The permessage-deflate negotiation. */
    public PerMessageDeflate deflate() {
        return deflate;
    }

    /** Whether frames are delivered as they arrive rather than as whole messages. */
    public boolean streamFragments() {
        return streamFragments;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WebSocketOptions that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "WebSocketOptions{maxFrameSize=" + maxFrameSize + ", maxMessageSize=" + maxMessageSize
                + ", maxSendQueue=" + maxSendQueue + ", idleTimeout=" + idleTimeout + ", closeTimeout=" + closeTimeout
                + ", pingInterval="
                + pingInterval + ", allowedOrigins=" + allowedOrigins + ", deflate=" + deflate
                + ", streamFragments=" + streamFragments + "}";
    }

    private Object[] values() {
        return new Object[] {
            maxFrameSize,
            maxMessageSize,
            maxSendQueue,
            idleTimeout,
            closeTimeout,
            pingInterval,
            allowedOrigins,
            deflate,
            streamFragments
        };
    }

    /** Builds {@link WebSocketOptions}; not thread-safe. */
    public static final class Builder {
        private int maxFrameSize = 1 << 20;
        private int maxMessageSize = 1 << 20;
        private int maxSendQueue = 4 << 20;
        private Duration idleTimeout = Duration.ofMinutes(5);
        private Duration closeTimeout = Duration.ofSeconds(5);
        private Duration pingInterval = Duration.ZERO;
        private Set<String> allowedOrigins = Set.of();
        private PerMessageDeflate deflate = PerMessageDeflate.ofDefault();
        private boolean streamFragments;

        private Builder() {}

        /** Sets the largest frame payload received, in bytes. */
        public Builder maxFrameSize(int bytes) {
            this.maxFrameSize = bytes;
            return this;
        }

        /** Sets the largest message received, in bytes. */
        public Builder maxMessageSize(int bytes) {
            this.maxMessageSize = bytes;
            return this;
        }

        /** Sets the most bytes of sent frames that may wait for the client to take them. */
        public Builder maxSendQueue(int bytes) {
            this.maxSendQueue = bytes;
            return this;
        }

        /** Sets the idle timeout; {@code ZERO} disables it. */
        public Builder idleTimeout(Duration timeout) {
            this.idleTimeout = requireNonNull(timeout, "idleTimeout");
            return this;
        }

        /** Sets the close handshake timeout; {@code ZERO} closes the connection right after the close frame. */
        public Builder closeTimeout(Duration timeout) {
            this.closeTimeout = requireNonNull(timeout, "closeTimeout");
            return this;
        }

        /** Sets the keep-alive ping interval; {@code ZERO} sends no pings. */
        public Builder pingInterval(Duration interval) {
            this.pingInterval = requireNonNull(interval, "pingInterval");
            return this;
        }

        /** Sets the allowed {@code Origin} values, such as {@code https://app.example.com}; empty allows any. */
        public Builder allowedOrigins(Set<String> origins) {
            this.allowedOrigins = requireNonNull(origins, "allowedOrigins");
            return this;
        }

        /** Sets the permessage-deflate negotiation. */
        public Builder deflate(PerMessageDeflate deflate) {
            this.deflate = requireNonNull(deflate, "deflate");
            return this;
        }

        /** Sets whether frames are delivered as they arrive rather than as whole messages. */
        public Builder streamFragments(boolean stream) {
            this.streamFragments = stream;
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if a size is not positive or a duration is negative
         */
        public WebSocketOptions build() {
            positive("maxFrameSize", maxFrameSize);
            positive("maxMessageSize", maxMessageSize);
            positive("maxSendQueue", maxSendQueue);
            notNegative("idleTimeout", idleTimeout);
            notNegative("closeTimeout", closeTimeout);
            notNegative("pingInterval", pingInterval);
            return new WebSocketOptions(this);
        }

        private static void positive(String name, int value) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
            }
        }

        private static void notNegative(String name, Duration value) {
            if (value.isNegative()) {
                throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0, 0 disables)");
            }
        }
    }
}
