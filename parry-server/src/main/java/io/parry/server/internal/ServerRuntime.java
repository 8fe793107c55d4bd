package io.parry.server.internal;

import io.netty.handler.codec.http.HttpDecoderConfig;
import io.parry.server.Handler;
import io.parry.server.Http2Options;
import io.parry.server.RequestLimits;
import io.parry.server.RequestTracer;
import io.parry.server.ServerOptions;
import io.parry.server.ServerTimeouts;
import io.parry.transport.spi.ReceivedFields;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** What every connection of one server shares: options, the handler, the worker executor, counters. */
final class ServerRuntime {
    final RequestLimits limits;
    final Http2Options http2;
    final TargetNormalizer paths;
    final Handler handler;
    final WorkerExecutor workers;
    final RejectionCounters rejections = new RejectionCounters();
    final HttpDecoderConfig decoderConfig;
    final long headerReadNanos;
    final long idleNanos;
    final long requestNanos;
    final long writeNanos;
    final ConnectionRegistry connections;
    final boolean tracing;
    final RequestListeners listeners;
    /** Starts each request's span, or {@code null} when Parry numbers spans itself. */
    final RequestTracer tracer;
    /** Whether exchanges keep a request log: only when someone listens, or a tracer ends spans with it. */
    final boolean logging;
    /** The listener's TLS, or {@code null} for cleartext. */
    final TlsListener tls;

    private final AtomicLong connectionIds = new AtomicLong();
    private volatile boolean draining;

    ServerRuntime(ServerOptions options, Handler handler, RequestListeners listeners, RequestTracer tracer) {
        this.limits = options.limits();
        this.http2 = options.http2();
        this.paths = new TargetNormalizer(options.pathNormalization());
        this.listeners = listeners;
        this.tracer = tracer;
        this.logging = !listeners.isEmpty() || tracer != null;
        this.handler = handler;
        this.workers = WorkerExecutor.create(options.workers());
        this.tracing = options.tracing();
        this.tls = options.tls().map(TlsListener::new).orElse(null);
        this.decoderConfig = new HttpDecoderConfig()
                .setMaxInitialLineLength(limits.maxInitialLineLength())
                .setMaxHeaderSize(limits.maxHeaderSize())
                .setMaxChunkSize(16 * 1024)
                // The line buffer grows as needed; a small start keeps idle connections small.
                .setInitialBufferSize(32)
                .setChunkedSupported(true)
                // Parry's HttpHeaders validates every field as the request is built; once is enough.
                .setValidateHeaders(false)
                .setHeadersFactory(ReceivedFields.FACTORY)
                .setTrailersFactory(ReceivedFields.FACTORY)
                .setAllowDuplicateContentLengths(false)
                .setStrictLineParsing(true)
                .setUseRfc9112TransferEncoding(true);
        ServerTimeouts timeouts = options.timeouts();
        this.headerReadNanos = timeouts.headerRead().toNanos();
        this.idleNanos = timeouts.idle().toNanos();
        this.requestNanos = timeouts.request().toNanos();
        this.writeNanos = timeouts.write().toNanos();
        this.connections = new ConnectionRegistry(tick(shortest(
                headerReadNanos,
                idleNanos,
                requestNanos,
                writeNanos,
                http2.stallTimeout().toNanos(),
                options.tls().map(tls -> tls.handshakeTimeout().toNanos()).orElse(0L))));
    }

    /**
     * How often deadlines are checked: a quarter of the shortest timeout, so a deadline is acted on at
     * most 25% late, and at least every 10 ms, at most every second.
     */
    private static long tick(long shortestTimeout) {
        long quarter = shortestTimeout / 4;
        return Math.max(TimeUnit.MILLISECONDS.toNanos(10), Math.min(TimeUnit.SECONDS.toNanos(1), quarter));
    }

    private static long shortest(long... timeouts) {
        long shortest = Long.MAX_VALUE;
        for (long timeout : timeouts) {
            if (timeout > 0) {
                shortest = Math.min(shortest, timeout);
            }
        }
        return shortest == Long.MAX_VALUE ? TimeUnit.SECONDS.toNanos(60) : shortest;
    }

    long nextConnectionId() {
        return connectionIds.incrementAndGet();
    }

    boolean isDraining() {
        return draining;
    }

    void startDraining() {
        draining = true;
    }
}
