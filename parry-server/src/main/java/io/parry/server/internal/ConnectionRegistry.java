package io.parry.server.internal;

import io.netty.channel.EventLoop;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts a server's connections and keeps one {@link ConnectionSweeper} per event loop. */
final class ConnectionRegistry {
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentMap<EventLoop, ConnectionSweeper> sweepers = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> allClosed = new CompletableFuture<>();
    private final long tickNanos;
    private volatile boolean closing;

    ConnectionRegistry(long tickNanos) {
        this.tickNanos = tickNanos;
    }

    /** Counts a new connection unless the limit is reached; false means refuse it. */
    boolean tryOpen(int limit) {
        if (open.incrementAndGet() > limit) {
            closed();
            return false;
        }
        return true;
    }

    void closed() {
        if (open.decrementAndGet() == 0 && closing) {
            allClosed.complete(null);
        }
    }

    int open() {
        return open.get();
    }

    ConnectionSweeper sweeper(EventLoop loop) {
        return sweepers.computeIfAbsent(loop, key -> new ConnectionSweeper(key, tickNanos));
    }

    Collection<ConnectionSweeper> sweepers() {
        return sweepers.values();
    }

    /** Completes once every connection has closed after {@code closing} was called. */
    CompletableFuture<Void> closing() {
        closing = true;
        if (open.get() == 0) {
            allClosed.complete(null);
        }
        return allClosed;
    }
}
