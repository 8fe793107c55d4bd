package io.parry.server;

import java.util.Arrays;

/**
 * The sizes and counts a request and a connection may reach. Each limit, when passed, is answered
 * with its own status and counted as a {@link Rejection}.
 *
 * <pre>{@code
 * RequestLimits limits = RequestLimits.builder().maxBodySize(1 << 20).maxConnections(5_000).build();
 * }</pre>
 */
public final class RequestLimits {
    private static final RequestLimits DEFAULTS = builder().build();

    private final int maxInitialLineLength;
    private final int maxHeaderSize;
    private final int maxHeaderCount;
    private final long maxBodySize;
    private final int maxConnections;
    private final int maxPipelinedRequests;

    private RequestLimits(Builder builder) {
        this.maxInitialLineLength = builder.maxInitialLineLength;
        this.maxHeaderSize = builder.maxHeaderSize;
        this.maxHeaderCount = builder.maxHeaderCount;
        this.maxBodySize = builder.maxBodySize;
        this.maxConnections = builder.maxConnections;
        this.maxPipelinedRequests = builder.maxPipelinedRequests;
    }

    /** The defaults: 8 KiB request line, 16 KiB and 100 header fields, 10 MiB body, 10,000 connections, 16 pipelined requests. */
    public static RequestLimits ofDefault() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these limits. */
    public Builder toBuilder() {
        return new Builder()
                .maxInitialLineLength(maxInitialLineLength)
                .maxHeaderSize(maxHeaderSize)
                .maxHeaderCount(maxHeaderCount)
                .maxBodySize(maxBodySize)
                .maxConnections(maxConnections)
                .maxPipelinedRequests(maxPipelinedRequests);
    }

    /** The longest request line in bytes; longer gets 414. */
    public int maxInitialLineLength() {
        return maxInitialLineLength;
    }

    /** The largest header block in bytes; larger gets 431. */
    public int maxHeaderSize() {
        return maxHeaderSize;
    }

    /** The most header fields; more gets 431. */
    public int maxHeaderCount() {
        return maxHeaderCount;
    }

    /** The largest request body in bytes; larger gets 413 (at once when declared by Content-Length). */
    public long maxBodySize() {
        return maxBodySize;
    }

    /** The most open connections; a connection beyond it is closed as soon as it is accepted. */
    public int maxConnections() {
        return maxConnections;
    }

    /** The most requests of one connection in flight at once; beyond it the server stops reading. */
    public int maxPipelinedRequests() {
        return maxPipelinedRequests;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RequestLimits that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "RequestLimits{maxInitialLineLength=" + maxInitialLineLength + ", maxHeaderSize=" + maxHeaderSize
                + ", maxHeaderCount=" + maxHeaderCount + ", maxBodySize=" + maxBodySize + ", maxConnections="
                + maxConnections + ", maxPipelinedRequests=" + maxPipelinedRequests + "}";
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {
            maxInitialLineLength, maxHeaderSize, maxHeaderCount, maxBodySize, maxConnections, maxPipelinedRequests
        };
    }

    /** Builds {@link RequestLimits}; not thread-safe. */
    public static final class Builder {
        private int maxInitialLineLength = 8 * 1024;
        private int maxHeaderSize = 16 * 1024;
        private int maxHeaderCount = 100;
        private long maxBodySize = 10L * 1024 * 1024;
        private int maxConnections = 10_000;
        private int maxPipelinedRequests = 16;

        private Builder() {}

        /** Sets the longest request line, in bytes. */
        public Builder maxInitialLineLength(int bytes) {
            this.maxInitialLineLength = bytes;
            return this;
        }

        /** Sets the largest header block, in bytes. */
        public Builder maxHeaderSize(int bytes) {
            this.maxHeaderSize = bytes;
            return this;
        }

        /** Sets the most header fields. */
        public Builder maxHeaderCount(int count) {
            this.maxHeaderCount = count;
            return this;
        }

        /** Sets the largest request body, in bytes; {@link Long#MAX_VALUE} for no limit (streaming). */
        public Builder maxBodySize(long bytes) {
            this.maxBodySize = bytes;
            return this;
        }

        /** Sets the most open connections. */
        public Builder maxConnections(int count) {
            this.maxConnections = count;
            return this;
        }

        /** Sets the most requests of one connection in flight at once. */
        public Builder maxPipelinedRequests(int count) {
            this.maxPipelinedRequests = count;
            return this;
        }

        /**
         * The limits.
         *
         * @throws IllegalArgumentException if a limit is not positive
         */
        public RequestLimits build() {
            Validation.positive("maxInitialLineLength", maxInitialLineLength);
            Validation.positive("maxHeaderSize", maxHeaderSize);
            Validation.positive("maxHeaderCount", maxHeaderCount);
            Validation.positive("maxBodySize", maxBodySize);
            Validation.positive("maxConnections", maxConnections);
            Validation.positive("maxPipelinedRequests", maxPipelinedRequests);
            return new RequestLimits(this);
        }
    }
}
