package io.parry.server;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Arrays;

/**
 * How long the server waits for each stage of an exchange. {@link Duration#ZERO} disables a timeout.
 *
 * <ul>
 *   <li>{@code headerRead}: from a request's first byte to its last header byte; slow clients get
 *       408 and the connection closes (slowloris).
 *   <li>{@code idle}: a keep-alive connection with nothing in flight is closed after this.
 *   <li>{@code request}: from the request's headers to the response's headers; 408 if the request
 *       body was still arriving, else 503; then the connection closes.
 *   <li>{@code write}: a connection whose client stops reading the response is closed after this.
 * </ul>
 */
public final class ServerTimeouts {
    private static final ServerTimeouts DEFAULTS = builder().build();

    private final Duration headerRead;
    private final Duration idle;
    private final Duration request;
    private final Duration write;

    private ServerTimeouts(Builder builder) {
        this.headerRead = builder.headerRead;
        this.idle = builder.idle;
        this.request = builder.request;
        this.write = builder.write;
    }

    /** The defaults: header read 10 s, idle 60 s, request 30 s, write 30 s. */
    public static ServerTimeouts ofDefault() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these timeouts. */
    public Builder toBuilder() {
        return new Builder().headerRead(headerRead).idle(idle).request(request).write(write);
    }

    /** The header-read timeout. */
    public Duration headerRead() {
        return headerRead;
    }

    /** The idle keep-alive timeout. */
    public Duration idle() {
        return idle;
    }

    /** The request timeout. */
    public Duration request() {
        return request;
    }

    /** The write timeout. */
    public Duration write() {
        return write;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ServerTimeouts that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "ServerTimeouts{headerRead=" + headerRead + ", idle=" + idle + ", request=" + request + ", write="
                + write + "}";
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {headerRead, idle, request, write};
    }

    /** Builds {@link ServerTimeouts}; not thread-safe. */
    public static final class Builder {
        private Duration headerRead = Duration.ofSeconds(10);
        private Duration idle = Duration.ofSeconds(60);
        private Duration request = Duration.ofSeconds(30);
        private Duration write = Duration.ofSeconds(30);

        private Builder() {}

        /** Sets the header-read timeout. */
        public Builder headerRead(Duration timeout) {
            this.headerRead = requireNonNull(timeout, "headerRead");
            return this;
        }

        /** Sets the idle keep-alive timeout. */
        public Builder idle(Duration timeout) {
            this.idle = requireNonNull(timeout, "idle");
            return this;
        }

        /** Sets the request timeout. */
        public Builder request(Duration timeout) {
            this.request = requireNonNull(timeout, "request");
            return this;
        }

        /** Sets the write timeout. */
        public Builder write(Duration timeout) {
            this.write = requireNonNull(timeout, "write");
            return this;
        }

        /**
         * The timeouts.
         *
         * @throws IllegalArgumentException if a timeout is negative
         */
        public ServerTimeouts build() {
            Validation.notNegative("headerRead", headerRead);
            Validation.notNegative("idle", idle);
            Validation.notNegative("request", request);
            Validation.notNegative("write", write);
            return new ServerTimeouts(this);
        }
    }
}
