package io.parry.server.websocket;

import java.util.Arrays;

/**
 * How a WebSocket endpoint answers a client's permessage-deflate offer (RFC 7692): whether it compresses
 * at all, at which level, and which of the offer's parameters it accepts. An offer whose parameters
 * the server does not accept is declined and the session runs uncompressed (RFC 7692, section 5).
 *
 * <ul>
 *   <li>{@code enabled}: whether offers are accepted; default {@code true}.
 *   <li>{@code compressionLevel}: zlib level 0 to 9; default 6.
 *   <li>{@code acceptServerWindowBits}: accept a {@code server_max_window_bits} the client asks for
 *       (8 to 15); default {@code true}. Without it such an offer is declined. The JDK's zlib cannot
 *       compress with a smaller window, so unless JZlib is on the class path the server then sends its
 *       messages as DEFLATE stored blocks (valid for any window, not smaller), while inflating the client's.
 *   <li>{@code clientWindowBits}: the {@code client_max_window_bits} the server answers when the
 *       client offers the parameter without a value (8 to 15); default 15.
 *   <li>{@code acceptServerNoContextTakeover}: honour {@code server_no_context_takeover}; default
 *       {@code true}.
 *   <li>{@code requestClientNoContextTakeover}: answer {@code client_no_context_takeover} when the
 *       client offers it, so the server keeps no inflater state between messages; default {@code
 *       false}.
 * </ul>
 *
 * The inflated size of every message is bounded by {@link WebSocketOptions#maxMessageSize()}: a
 * message that inflates past it (a compression bomb) closes the session with 1009.
 */
public final class PerMessageDeflate {
    private static final PerMessageDeflate DEFAULTS = builder().build();
    private static final PerMessageDeflate DISABLED = builder().enabled(false).build();

    private final boolean enabled;
    private final int compressionLevel;
    private final boolean acceptServerWindowBits;
    private final int clientWindowBits;
    private final boolean acceptServerNoContextTakeover;
    private final boolean requestClientNoContextTakeover;

    private PerMessageDeflate(Builder builder) {
        this.enabled = builder.enabled;
        this.compressionLevel = builder.compressionLevel;
        this.acceptServerWindowBits = builder.acceptServerWindowBits;
        this.clientWindowBits = builder.clientWindowBits;
        this.acceptServerNoContextTakeover = builder.acceptServerNoContextTakeover;
        this.requestClientNoContextTakeover = builder.requestClientNoContextTakeover;
    }

    /** The defaults: enabled, level 6, window bits and no-context-takeover offers accepted. */
    public static PerMessageDeflate ofDefault() {
        return DEFAULTS;
    }

    /** No compression: every offer is declined. */
    public static PerMessageDeflate disabled() {
        return DISABLED;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder()
                .enabled(enabled)
                .compressionLevel(compressionLevel)
                .acceptServerWindowBits(acceptServerWindowBits)
                .clientWindowBits(clientWindowBits)
                .acceptServerNoContextTakeover(acceptServerNoContextTakeover)
                .requestClientNoContextTakeover(requestClientNoContextTakeover);
    }

    /** Whether offers are accepted. */
    public boolean enabled() {
        return enabled;
    }

    /** The zlib compression level, 0 to 9. */
    public int compressionLevel() {
        return compressionLevel;
    }

    /** Whether a {@code server_max_window_bits} parameter is honoured. */
    public boolean acceptServerWindowBits() {
        return acceptServerWindowBits;
    }

    /** The {@code client_max_window_bits} answered to an offer of the parameter without a value. */
    public int clientWindowBits() {
        return clientWindowBits;
    }

    /** Whether {@code server_no_context_takeover} is honoured. */
    public boolean acceptServerNoContextTakeover() {
        return acceptServerNoContextTakeover;
    }

    /** Whether {@code client_no_context_takeover} is answered when offered. */
    public boolean requestClientNoContextTakeover() {
        return requestClientNoContextTakeover;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PerMessageDeflate that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "PerMessageDeflate{enabled=" + enabled + ", compressionLevel=" + compressionLevel
                + ", acceptServerWindowBits=" + acceptServerWindowBits + ", clientWindowBits=" + clientWindowBits
                + ", acceptServerNoContextTakeover=" + acceptServerNoContextTakeover
                + ", requestClientNoContextTakeover=" + requestClientNoContextTakeover + "}";
    }

    private Object[] values() {
        return new Object[] {
            enabled,
            compressionLevel,
            acceptServerWindowBits,
            clientWindowBits,
            acceptServerNoContextTakeover,
            requestClientNoContextTakeover
        };
    }

    /** Builds {@link PerMessageDeflate}; not thread-safe. */
    public static final class Builder {
        private boolean enabled = true;
        private int compressionLevel = 6;
        private boolean acceptServerWindowBits = true;
        private int clientWindowBits = 15;
        private boolean acceptServerNoContextTakeover = true;
        private boolean requestClientNoContextTakeover;

        private Builder() {}

        /** Sets whether offers are accepted. */
        public Builder enabled(boolean enabled) {
            this.enabled = enabled;
            return this;
        }

        /** Sets the zlib compression level, 0 to 9. */
        public Builder compressionLevel(int level) {
            this.compressionLevel = level;
            return this;
        }

        /** Sets whether a {@code server_max_window_bits} parameter is honoured. */
        public Builder acceptServerWindowBits(boolean accept) {
            this.acceptServerWindowBits = accept;
            return this;
        }

        /** Sets the {@code client_max_window_bits} answered to an offer of the parameter without a value. */
        public Builder clientWindowBits(int bits) {
            this.clientWindowBits = bits;
            return this;
        }

        /** Sets whether {@code server_no_context_takeover} is honoured. */
        public Builder acceptServerNoContextTakeover(boolean accept) {
            this.acceptServerNoContextTakeover = accept;
            return this;
        }

        /** Sets whether {@code client_no_context_takeover} is answered when offered. */
        public Builder requestClientNoContextTakeover(boolean request) {
            this.requestClientNoContextTakeover = request;
            return this;
        }

        /**
         * The settings.
         *
         * @throws IllegalArgumentException if the level or the window bits are out of range
         */
        public PerMessageDeflate build() {
            if (compressionLevel < 0 || compressionLevel > 9) {
                throw new IllegalArgumentException("compressionLevel: " + compressionLevel + " (expected: 0 to 9)");
            }
            if (clientWindowBits < 8 || clientWindowBits > 15) {
                throw new IllegalArgumentException("clientWindowBits: " + clientWindowBits + " (expected: 8 to 15)");
            }
            return new PerMessageDeflate(this);
        }
    }
}
