package io.parry.client;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Arrays;

/**
 * How long the client waits for each stage of a call; {@link Duration#ZERO} disables a timeout. Each
 * expiry fails the call with its own exception type and closes the connection it was using.
 *
 * <ul>
 *   <li>{@code connect}: to open a TCP connection ({@link ConnectTimeoutException});
 *   <li>{@code responseHeaders}: from the request's last byte written to the response's headers
 *       ({@link ResponseTimeoutException});
 *   <li>{@code bodyIdle}: between two chunks of the response body ({@link BodyTimeoutException});
 *   <li>{@code call}: the whole call, from the send to the response body's end ({@link
 *       CallTimeoutException}).
 * </ul>
 */
public final class ClientTimeouts {
    private static final ClientTimeouts DEFAULTS = builder().build();

    private final Duration connect;
    private final Duration responseHeaders;
    private final Duration bodyIdle;
    private final Duration call;

    private ClientTimeouts(Builder builder) {
        this.connect = builder.connect;
        this.responseHeaders = builder.responseHeaders;
        this.bodyIdle = builder.bodyIdle;
        this.call = builder.call;
    }

    /** The defaults: connect 2 s, response headers 30 s, body idle 30 s, call disabled. */
    public static ClientTimeouts ofDefault() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these timeouts. */
    public Builder toBuilder() {
        return new Builder()
                .connect(connect)
                .responseHeaders(responseHeaders)
                .bodyIdle(bodyIdle)
                .call(call);
    }

    /** The connect timeout. */
    public Duration connect() {
        return connect;
    }

    /** The response-headers timeout. */
    public Duration responseHeaders() {
        return responseHeaders;
    }

    /** The idle timeout between response body chunks. */
    public Duration bodyIdle() {
        return bodyIdle;
    }

    /** The whole-call timeout. */
    public Duration call() {
        return call;
    }

    @Override
    public String toString() {
        return "ClientTimeouts{connect=" + connect + ", responseHeaders=" + responseHeaders + ", bodyIdle=" + bodyIdle
                + ", call=" + call + "}";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ClientTimeouts that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {connect, responseHeaders, bodyIdle, call};
    }

    /** Builds {@link ClientTimeouts}; not thread-safe. */
    public static final class Builder {
        private Duration connect = Duration.ofSeconds(2);
        private Duration responseHeaders = Duration.ofSeconds(30);
        private Duration bodyIdle = Duration.ofSeconds(30);
        private Duration call = Duration.ZERO;

        private Builder() {}

        /** Sets the connect timeout. */
        public Builder connect(Duration timeout) {
            this.connect = requireNonNull(timeout, "connect");
            return this;
        }

        /** Sets the response-headers timeout. */
        public Builder responseHeaders(Duration timeout) {
            this.responseHeaders = requireNonNull(timeout, "responseHeaders");
            return this;
        }

        /** Sets the idle timeout between response body chunks. */
        public Builder bodyIdle(Duration timeout) {
            this.bodyIdle = requireNonNull(timeout, "bodyIdle");
            return this;
        }

        /** Sets the whole-call timeout. */
        public Builder call(Duration timeout) {
            this.call = requireNonNull(timeout, "call");
            return this;
        }

        /**
         * The timeouts.
         *
         * @throws IllegalArgumentException if a timeout is negative
         */
        public ClientTimeouts build() {
            notNegative("connect", connect);
            notNegative("responseHeaders", responseHeaders);
            notNegative("bodyIdle", bodyIdle);
            notNegative("call", call);
            return new ClientTimeouts(this);
        }

        private static void notNegative(String name, Duration value) {
            if (value.isNegative()) {
                throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
            }
        }
    }
}
