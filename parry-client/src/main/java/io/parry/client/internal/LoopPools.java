package io.parry.client.internal;

import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.parry.client.ClientOptions;
import io.parry.client.ClientTimeouts;
import io.parry.client.PoolOptions;
import io.parry.transport.spi.Transport;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A client's connection pools on one event loop, one per endpoint, and the one task that checks
 * their deadlines: every tick (a quarter of the shortest timeout in use, 10 ms to 1 s) it evicts
 * idle connections and fails calls whose timeouts expired, so no call schedules a timer of its own.
 * Confined to its event loop, except the pool map, which {@link #pool(String)} reads from any thread
 * for statistics.
 *
 * <p>It also keeps the connections a {@code 101} took out of the pools until they end, so that closing the client
 * closes its WebSockets too ({@link HeldUpgrade#clientClosing()}).
 */
final class LoopPools {
    private static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MAX_TICK_NANOS = TimeUnit.SECONDS.toNanos(1);

    final EventLoop loop;
    final ClientOptions options;
    final Connector connector;
    private final ConcurrentHashMap<String, ConnectionPool> pools = new ConcurrentHashMap<>();
    private final Set<HeldUpgrade> upgraded = new HashSet<>();
    private long tickNanos;
    private ScheduledFuture<?> sweep;
    private boolean closed;

    LoopPools(EventLoop loop, Transport transport, ClientOptions options, ClientTls tls) {
        this.loop = loop;
        this.options = options;
        this.connector = new Connector(loop, transport, options, tls);
        this.tickNanos = tickFor(shortest(options.timeouts(), options.pool()));
    }

    /** Starts the call on this loop; called on the loop. */
    void start(ClientCall call) {
        if (call.isDone()) {
            return;
        }
        if (closed) {
            call.fail(new IllegalStateException("the client is closed"));
            return;
        }
        ConnectionPool pool = pools.get(call.poolKey);
        if (pool == null) {
            pool = new ConnectionPool(this, call.endpoint);
            pools.put(call.poolKey, pool);
        }
        if (call.timeouts != options.timeouts()) {
            lowerTick(tickFor(shortest(call.timeouts, options.pool())));
        }
        pool.acquire(call);
        scheduleSweep();
    }

    /** The pool of this endpoint key, or {@code null}; safe from any thread. */
    ConnectionPool pool(String key) {
        return pools.get(key);
    }

    boolean isClosed() {
        return closed;
    }

    /** Runs the task on this loop, or drops it when the loop has stopped (its channels are closed then). */
    void execute(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            // The loop is shutting down; everything on it is being closed anyway.
        }
    }

    /** Keeps a connection a {@code 101} took out of its pool until it ends; called on the loop. */
    void upgraded(HeldUpgrade upgrade) {
        if (closed) {
            upgrade.clientClosing();
            return;
        }
        upgraded.add(upgrade);
        upgrade.channel().closeFuture().addListener(ended -> upgraded.remove(upgrade));
    }

    /**
     * Closes every pool (queued calls fail, connections close) and every upgraded connection the client still owns
     * (a WebSocket starts its close handshake); called on the loop.
     *
     * @return the close futures of the upgraded connections still closing
     */
    List<ChannelFuture> close() {
        if (closed) {
            return List.of();
        }
        closed = true;
        if (sweep != null) {
            sweep.cancel(false);
            sweep = null;
        }
        for (ConnectionPool pool : pools.values()) {
            pool.close();
        }
        pools.clear();
        connector.close();
        List<ChannelFuture> ending = new ArrayList<>(upgraded.size());
        for (HeldUpgrade upgrade : List.copyOf(upgraded)) {
            ChannelFuture ended = upgrade.clientClosing();
            if (ended != null) {
                ending.add(ended);
            }
        }
        upgraded.clear();
        return ending;
    }

    private void scheduleSweep() {
        if (sweep == null && !closed) {
            try {
                sweep = loop.schedule(this::sweep, tickNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // The loop is shutting down.
            }
        }
    }

    private void lowerTick(long tick) {
        if (tick < tickNanos) {
            tickNanos = tick;
            if (sweep != null) {
                sweep.cancel(false);
                sweep = null;
            }
        }
    }

    private void sweep() {
        sweep = null;
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        boolean any = false;
        for (Iterator<ConnectionPool> it = pools.values().iterator(); it.hasNext(); ) {
            ConnectionPool pool = it.next();
            pool.sweep(now);
            if (pool.isEmpty()) {
                it.remove();
            } else {
                any = true;
            }
        }
        if (any) {
            scheduleSweep();
        }
    }

    private static long shortest(ClientTimeouts timeouts, PoolOptions pool) {
        long shortest = Long.MAX_VALUE;
        shortest = shorter(shortest, Durations.nanos(timeouts.responseHeaders()));
        shortest = shorter(shortest, Durations.nanos(timeouts.bodyIdle()));
        shortest = shorter(shortest, Durations.nanos(timeouts.call()));
        shortest = shorter(shortest, Durations.nanos(pool.idleTimeout()));
        shortest = shorter(shortest, Durations.nanos(pool.abandonedDrainTime()));
        shortest = shorter(shortest, Durations.nanos(pool.pingInterval()));
        return shorter(shortest, Durations.nanos(pool.maxLifetime()));
    }

    private static long shorter(long current, long candidate) {
        return candidate > 0 && candidate < current ? candidate : current;
    }

    private static long tickFor(long shortestTimeoutNanos) {
        return Math.max(MIN_TICK_NANOS, Math.min(MAX_TICK_NANOS, shortestTimeoutNanos / 4));
    }
}
