package io.parry.server.internal;

import io.netty.handler.codec.http.HttpDecoderConfig;
import io.parry.server.Handler;
import io.parry.server.RequestLimits;
import io.parry.server.ServerOptions;
import io.parry.server.ServerTimeouts;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** What every connection of one server shares: options, the handler, the worker executor, counters. */
final class ServerRuntime {
    final RequestLimits limits;
    final Handler handler;
    final WorkerExecutor workers;
    final RejectionCounters rejections = new RejectionCounters();
    final HttpDecoderConfig decoderConfig;
    final long headerReadNanos;
    final long idleNanos;
    final long requestNanos;
    final long writeNanos;
    final long tickNanos;
    private final AtomicLong connectionIds = new AtomicLong();
    private volatile boolean draining;

    ServerRuntime(ServerOptions options, Handler handler) {
        this.limits = options.limits();
        this.handler = handler;
        this.workers = WorkerExecutor.create(options.workers());
        this.decoderConfig = new HttpDecoderConfig()
                .setMaxInitialLineLength(limits.maxInitialLineLength())
                .setMaxHeaderSize(limits.maxHeaderSize())
                .setMaxChunkSize(16 * 1024)
                .setChunkedSupported(true)
                // Parry's HttpHeaders validates every field as the request is built; once is enough.
                .setValidateHeaders(false)
                .setAllowDuplicateContentLengths(false)
                .setStrictLineParsing(true)
                .setUseRfc9112TransferEncoding(true);
        ServerTimeouts timeouts = options.timeouts();
        this.headerReadNanos = timeouts.headerRead().toNanos();
        this.idleNanos = timeouts.idle().toNanos();
        this.requestNanos = timeouts.request().toNanos();
        this.writeNanos = timeouts.write().toNanos();
        this.tickNanos = shortest(headerReadNanos, idleNanos, requestNanos, writeNanos);
    }

    /**
     * The interval at which a connection re-checks its deadlines: the shortest timeout, so a deadline
     * set after the last check is never missed, without scheduling a task per request.
     */
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
