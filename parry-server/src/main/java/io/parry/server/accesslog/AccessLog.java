package io.parry.server.accesslog;

import static java.util.Objects.requireNonNull;

import io.parry.server.RequestListener;
import io.parry.server.RequestLog;
import java.io.OutputStream;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one line per request through an SLF4J logger (at INFO, logger {@code parry.access} by
 * default), so the application's logging configuration chooses where lines go. The event loop only
 * enqueues the request's {@link RequestLog}; one daemon thread per access log formats and writes the
 * lines. When the queue is full the line is dropped and counted ({@link #dropped()}): the access log
 * never slows or blocks the server. {@link Builder#output} writes the lines to a stream instead,
 * such as {@code System.out}, in batches of many lines per system call.
 *
 * <pre>{@code
 * AccessLog accessLog = AccessLog.json();
 * Server server = Server.builder().handler(api).listener(accessLog).build().start();
 * // ...
 * server.stop(Duration.ofSeconds(10));
 * accessLog.close(); // writes what is still queued
 * }</pre>
 *
 * <p>Close it after the server stopped: it writes the lines still queued and stops its thread; lines
 * for requests that end later are dropped. The thread is a daemon, so an access log never closed does
 * not keep the JVM alive, but its last lines may be lost.
 */
public final class AccessLog implements RequestListener, AutoCloseable {
    private final LineWriter writer;

    private AccessLog(Builder builder) {
        this.writer = new LineWriter(builder.queueCapacity, builder.format, sink(builder));
    }

    /**
     * An access log of JSON lines, for Splunk and ELK: one object a line with the fields {@code time}
     * (ISO-8601 in UTC, milliseconds), {@code remote} (the client's IP address), {@code method},
     * {@code path} (without the query, which may carry secrets), {@code route}, {@code status},
     * {@code bytesIn}, {@code bytesOut}, {@code durationMs} (a decimal), {@code upstream},
     * {@code traceId}, {@code spanId} (the server's span), {@code requestId} and {@code userAgent};
     * an unknown value is {@code null}.
     *
     * <pre>{@code
     * {"time":"2025-01-31T12:00:00.123Z","remote":"10.0.0.7","method":"GET","path":"/todos/42","route":"/todos/{id}","status":200,"bytesIn":0,"bytesOut":57,"durationMs":0.412,"upstream":null,"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b7","requestId":"1-1","userAgent":"curl/8.5.0"}
     * }</pre>
     */
    public static AccessLog json() {
        return builder().build();
    }

    /**
     * An access log in the combined log format of Apache httpd and nginx, with times in UTC:
     * {@code 10.0.0.7 - - [31/Jan/2025:12:00:00 +0000] "GET /todos/42?full=yes HTTP/1.1" 200 57 "-"
     * "curl/8.5.0"}. The status is 0 when the connection broke before a response; the size is
     * {@code -} when no body byte was sent.
     */
    public static AccessLog combined() {
        return builder().format(AccessLogFormat.combined()).build();
    }

    /**
     * A builder: JSON lines to the logger {@code parry.access}, with a queue of 8192 lines; {@link
     * Builder#output} writes them to a stream in batches instead.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Enqueues the line for this request; called on the event loop, it never blocks. */
    @Override
    public void requestEnded(RequestLog log) {
        writer.offer(log);
    }

    /** How many lines were dropped because the queue was full or the access log closed. */
    public long dropped() {
        return writer.dropped();
    }

    /** Writes the lines still queued and stops the writer thread; returns when it has stopped. */
    @Override
    public void close() {
        writer.close();
    }

    private static LineSink sink(Builder builder) {
        if (builder.output != null) {
            return new BatchedOutput(builder.output);
        }
        if (builder.sink != null) {
            return new ConsumerSink(builder.sink);
        }
        Logger logger = LoggerFactory.getLogger(builder.loggerName);
        return new ConsumerSink(logger::info);
    }

    /** Builds an {@link AccessLog}; not thread-safe. */
    public static final class Builder {
        private AccessLogFormat format = AccessLogFormat.json();
        private String loggerName = "parry.access";
        private int queueCapacity = 8192;
        private Consumer<String> sink;
        private OutputStream output;

        private Builder() {}

        /** Sets the line format; {@link AccessLogFormat#json()} by default. */
        public Builder format(AccessLogFormat format) {
            this.format = requireNonNull(format, "format");
            return this;
        }

        /** Sets the name of the SLF4J logger the lines go to at INFO; {@code parry.access} by default. */
        public Builder loggerName(String loggerName) {
            this.loggerName = requireNonNull(loggerName, "loggerName");
            return this;
        }

        /**
         * Sets how many lines may wait for the writer thread before more are dropped; 8192 by default,
         * rounded up to a power of two.
         */
        public Builder queueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
            return this;
        }

        /**
         * Sends the lines to this consumer instead of the logger, for tests or a destination of
         * its own. It runs on the writer thread, one line at a time; it may block, which only fills
         * the queue. Replaces an {@link #output}.
         */
        public Builder sink(Consumer<String> sink) {
            this.sink = requireNonNull(sink, "sink");
            this.output = null;
            return this;
        }

        /**
         * Writes the lines to this stream instead of the logger, in UTF-8, each ended by a line feed.
         * The writer thread collects lines in a buffer of 64 KiB and writes it with one call when it is
         * full and whenever the queue is empty, then flushes the stream: one system call for a batch of
         * lines rather than one per line, which is what a busy server's log to {@code System.out}
         * costs through a logger. A line is never split across two writes, so with {@code System.out}
         * (a {@code PrintStream}, which locks itself for each write) lines stay whole between the lines
         * that other threads print. A line is written within about 5 ms. Replaces a {@link #sink}.
         *
         * <pre>{@code
         * AccessLog accessLog = AccessLog.builder().output(System.out).build();
         * }</pre>
         */
        public Builder output(OutputStream output) {
            this.output = requireNonNull(output, "output");
            this.sink = null;
            return this;
        }

        /**
         * The access log, with its writer thread started.
         *
         * @throws IllegalArgumentException if the queue capacity is not positive or over 2^30
         */
        public AccessLog build() {
            if (queueCapacity <= 0 || queueCapacity > 1 << 30) {
                throw new IllegalArgumentException(
                        "queueCapacity: " + queueCapacity + " (expected: > 0 and <= " + (1 << 30) + ")");
            }
            return new AccessLog(this);
        }
    }
}
