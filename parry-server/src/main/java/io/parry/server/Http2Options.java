package io.parry.server;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Arrays;

/**
 * How a {@link Server} speaks HTTP/2 (RFC 9113): which ways in are open, the settings it announces,
 * and the limits that defend it against the known HTTP/2 attacks.
 *
 * <p>On the cleartext port a connection whose first bytes are the HTTP/2 preface speaks h2c (prior
 * knowledge, on by default); {@code Upgrade: h2c} is off by default, as RFC 9113, section 3.1
 * deprecates it. Each stream is one request: handlers, filters and {@link RequestLimits} apply to it
 * as to an HTTP/1.1 request.
 *
 * <p>Every limit breach ends the connection with GOAWAY and is counted ({@link
 * Server#rejections(Rejection)}); other connections are untouched.
 *
 * <pre>{@code
 * Http2Options http2 = Http2Options.builder().maxConcurrentStreams(200).build();
 * ServerOptions options = ServerOptions.builder().http2(http2).build();
 * }</pre>
 */
public final class Http2Options {
    private final boolean priorKnowledge;
    private final boolean upgrade;
    private final int maxConcurrentStreams;
    private final int maxHeaderListSize;
    private final int maxFrameSize;
    private final int initialStreamWindow;
    private final int initialConnectionWindow;
    /** As set, 0 when derived: so that {@link #toBuilder()} derives it again from changed settings. */
    private final int connectionWindowSet;

    private final int maxResetsPerWindow;
    private final Duration resetWindow;
    private final int maxControlFramesPerSecond;
    private final int maxEmptyDataFrames;
    private final int maxContinuationFrames;
    private final Duration stallTimeout;

    private Http2Options(Builder builder, int initialConnectionWindow) {
        this.priorKnowledge = builder.priorKnowledge;
        this.upgrade = builder.upgrade;
        this.maxConcurrentStreams = builder.maxConcurrentStreams;
        this.maxHeaderListSize = builder.maxHeaderListSize;
        this.maxFrameSize = builder.maxFrameSize;
        this.initialStreamWindow = builder.initialStreamWindow;
        this.initialConnectionWindow = initialConnectionWindow;
        this.connectionWindowSet = builder.initialConnectionWindow;
        this.maxResetsPerWindow = builder.maxResetsPerWindow;
        this.resetWindow = builder.resetWindow;
        this.maxControlFramesPerSecond = builder.maxControlFramesPerSecond;
        this.maxEmptyDataFrames = builder.maxEmptyDataFrames;
        this.maxContinuationFrames = builder.maxContinuationFrames;
        this.stallTimeout = builder.stallTimeout;
    }

    /** The defaults: h2c by prior knowledge on, upgrade off, 100 streams, 64 KiB stream windows. */
    public static Http2Options ofDefault() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder()
                .priorKnowledge(priorKnowledge)
                .upgrade(upgrade)
                .maxConcurrentStreams(maxConcurrentStreams)
                .maxHeaderListSize(maxHeaderListSize)
                .maxFrameSize(maxFrameSize)
                .initialStreamWindow(initialStreamWindow)
                .initialConnectionWindow(connectionWindowSet)
                .maxResets(maxResetsPerWindow, resetWindow)
                .maxControlFramesPerSecond(maxControlFramesPerSecond)
                .maxEmptyDataFrames(maxEmptyDataFrames)
                .maxContinuationFrames(maxContinuationFrames)
                .stallTimeout(stallTimeout);
    }

    /** Whether a cleartext connection that opens with the HTTP/2 preface speaks h2c; default true. */
    public boolean priorKnowledge() {
        return priorKnowledge;
    }

    /**
     * Whether a cleartext HTTP/1.1 request may switch with {@code Upgrade: h2c}; default false, as it
     * is deprecated and can change protocols behind a proxy that does not know it. Only a request
     * without a body, alone on its connection, is upgraded; it is answered as stream 1.
     */
    public boolean upgrade() {
        return upgrade;
    }

    /** SETTINGS_MAX_CONCURRENT_STREAMS: the most streams a client may have open; default 100. */
    public int maxConcurrentStreams() {
        return maxConcurrentStreams;
    }

    /**
     * SETTINGS_MAX_HEADER_LIST_SIZE, in decoded bytes; default 16 KiB. A stream over it gets 431; a
     * second one on the same connection (an HPACK bomb decodes far past it from a few bytes), or a
     * header block whose encoded size alone is 25% over it, ends the connection.
     */
    public int maxHeaderListSize() {
        return maxHeaderListSize;
    }

    /** SETTINGS_MAX_FRAME_SIZE, in bytes; default 16384 (the least RFC 9113 allows). */
    public int maxFrameSize() {
        return maxFrameSize;
    }

    /**
     * SETTINGS_INITIAL_WINDOW_SIZE, in bytes; default 64 KiB. A request body whose reader is behind
     * stops its stream's window, so this bounds what one slow stream holds.
     */
    public int initialStreamWindow() {
        return initialStreamWindow;
    }

    /**
     * The connection's receive window, in bytes; default {@code maxConcurrentStreams *
     * initialStreamWindow}, so that streams whose readers are behind never stop the others.
     */
    public int initialConnectionWindow() {
        return initialConnectionWindow;
    }

    /**
     * The most RST_STREAM frames in {@link #resetWindow()}, those the client sends (rapid reset,
     * CVE-2023-44487) and, counted apart, those its errors make the server send (MadeYouReset,
     * CVE-2025-8671); default 200.
     */
    public int maxResetsPerWindow() {
        return maxResetsPerWindow;
    }

    /** The window {@link #maxResetsPerWindow()} counts in; default 30 seconds. */
    public Duration resetWindow() {
        return resetWindow;
    }

    /** The most PING and SETTINGS frames a client may send in a second; default 100. */
    public int maxControlFramesPerSecond() {
        return maxControlFramesPerSecond;
    }

    /** The most DATA frames in a row with no payload and no end of stream; default 10. */
    public int maxEmptyDataFrames() {
        return maxEmptyDataFrames;
    }

    /** The most small CONTINUATION frames in a row (a CONTINUATION flood); default 16. */
    public int maxContinuationFrames() {
        return maxContinuationFrames;
    }

    /**
     * How long a response may wait on a client's flow-control window of zero before its stream is
     * reset (or, for the connection window, the connection closed) and its queued data freed;
     * default 30 seconds, {@link Duration#ZERO} to wait for ever.
     */
    public Duration stallTimeout() {
        return stallTimeout;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Http2Options that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "Http2Options{priorKnowledge=" + priorKnowledge + ", upgrade=" + upgrade + ", maxConcurrentStreams="
                + maxConcurrentStreams + ", maxHeaderListSize=" + maxHeaderListSize + ", maxFrameSize=" + maxFrameSize
                + ", initialStreamWindow=" + initialStreamWindow + ", initialConnectionWindow="
                + initialConnectionWindow + ", maxResetsPerWindow=" + maxResetsPerWindow + ", resetWindow="
                + resetWindow + ", maxControlFramesPerSecond=" + maxControlFramesPerSecond + ", maxEmptyDataFrames="
                + maxEmptyDataFrames + ", maxContinuationFrames=" + maxContinuationFrames + ", stallTimeout="
                + stallTimeout + "}";
    }

    private Object[] values() {
        return new Object[] {
            priorKnowledge,
            upgrade,
            maxConcurrentStreams,
            maxHeaderListSize,
            maxFrameSize,
            initialStreamWindow,
            initialConnectionWindow,
            maxResetsPerWindow,
            resetWindow,
            maxControlFramesPerSecond,
            maxEmptyDataFrames,
            maxContinuationFrames,
            stallTimeout
        };
    }

    /** Builds {@link Http2Options}; not thread-safe. */
    public static final class Builder {
        private static final int MIN_FRAME_SIZE = 16_384;
        private static final int MAX_FRAME_SIZE = 16_777_215;

        private boolean priorKnowledge = true;
        private boolean upgrade;
        private int maxConcurrentStreams = 100;
        private int maxHeaderListSize = 16 * 1024;
        private int maxFrameSize = MIN_FRAME_SIZE;
        private int initialStreamWindow = 64 * 1024;
        /** 0 until set: then derived from the stream count and window. */
        private int initialConnectionWindow;

        private int maxResetsPerWindow = 200;
        private Duration resetWindow = Duration.ofSeconds(30);
        private int maxControlFramesPerSecond = 100;
        private int maxEmptyDataFrames = 10;
        private int maxContinuationFrames = 16;
        private Duration stallTimeout = Duration.ofSeconds(30);

        private Builder() {}

        /** Whether h2c by prior knowledge is accepted on the cleartext port. */
        public Builder priorKnowledge(boolean enabled) {
            this.priorKnowledge = enabled;
            return this;
        }

        /** Whether {@code Upgrade: h2c} is honoured on the cleartext port. */
        public Builder upgrade(boolean enabled) {
            this.upgrade = enabled;
            return this;
        }

        /** Sets the most concurrent streams per connection. */
        public Builder maxConcurrentStreams(int streams) {
            this.maxConcurrentStreams = streams;
            return this;
        }

        /** Sets the largest decoded header list, in bytes. */
        public Builder maxHeaderListSize(int bytes) {
            this.maxHeaderListSize = bytes;
            return this;
        }

        /** Sets the largest frame payload the server accepts, in bytes (16384 to 16777215). */
        public Builder maxFrameSize(int bytes) {
            this.maxFrameSize = bytes;
            return this;
        }

        /** Sets each stream's initial receive window, in bytes. */
        public Builder initialStreamWindow(int bytes) {
            this.initialStreamWindow = bytes;
            return this;
        }

        /** Sets the connection's receive window, in bytes (at least 65535); 0 derives it as by default. */
        public Builder initialConnectionWindow(int bytes) {
            this.initialConnectionWindow = bytes;
            return this;
        }

        /** Sets the most RST_STREAM frames each way within {@code window}. */
        public Builder maxResets(int count, Duration window) {
            this.maxResetsPerWindow = count;
            this.resetWindow = requireNonNull(window, "window");
            return this;
        }

        /** Sets the most PING and SETTINGS frames per second. */
        public Builder maxControlFramesPerSecond(int count) {
            this.maxControlFramesPerSecond = count;
            return this;
        }

        /** Sets the most empty DATA frames in a row. */
        public Builder maxEmptyDataFrames(int count) {
            this.maxEmptyDataFrames = count;
            return this;
        }

        /** Sets the most small CONTINUATION frames in a row. */
        public Builder maxContinuationFrames(int count) {
            this.maxContinuationFrames = count;
            return this;
        }

        /** Sets how long a response may wait on a zero window; {@link Duration#ZERO} waits for ever. */
        public Builder stallTimeout(Duration timeout) {
            this.stallTimeout = requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if a count or size is out of its range
         */
        public Http2Options build() {
            Validation.positive("maxConcurrentStreams", maxConcurrentStreams);
            Validation.positive("maxHeaderListSize", maxHeaderListSize);
            if (maxFrameSize < MIN_FRAME_SIZE || maxFrameSize > MAX_FRAME_SIZE) {
                throw new IllegalArgumentException(
                        "maxFrameSize: " + maxFrameSize + " (expected: 16384 to 16777215, RFC 9113 section 6.5.2)");
            }
            Validation.positive("initialStreamWindow", initialStreamWindow);
            int connectionWindow = initialConnectionWindow != 0
                    ? initialConnectionWindow
                    : (int) Math.max(
                            65_535, Math.min(Integer.MAX_VALUE, (long) maxConcurrentStreams * initialStreamWindow));
            if (connectionWindow < 65_535) {
                throw new IllegalArgumentException(
                        "initialConnectionWindow: " + connectionWindow + " (expected: >= 65535)");
            }
            Validation.positive("maxResetsPerWindow", maxResetsPerWindow);
            Validation.positive("resetWindow", resetWindow.getSeconds());
            Validation.positive("maxControlFramesPerSecond", maxControlFramesPerSecond);
            Validation.positive("maxEmptyDataFrames", maxEmptyDataFrames);
            Validation.positive("maxContinuationFrames", maxContinuationFrames);
            Validation.notNegative("stallTimeout", stallTimeout);
            return new Http2Options(this, connectionWindow);
        }
    }
}
