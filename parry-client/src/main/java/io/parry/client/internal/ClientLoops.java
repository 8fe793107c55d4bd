package io.parry.client.internal;

import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.internal.ThreadExecutorMap;
import io.parry.client.ClientOptions;
import io.parry.client.ClientTimeouts;
import io.parry.client.Endpoint;
import io.parry.client.PoolStats;
import io.parry.client.RequestWritten;
import io.parry.http.HttpRequest;
import io.parry.transport.spi.CallerContext;
import io.parry.transport.spi.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chooses the event loop of each call. A call made on an event loop whose transport the client can
 * use (a Parry server's handler, say) runs on that loop, so a proxied exchange never changes thread.
 * Other calls go to the client's own loops, started on the first such call: to one that holds an
 * idle connection to the endpoint if any does, else round-robin. Thread-safe; nothing here locks
 * except the one-time start of the own loops.
 */
final class ClientLoops {
    private static final long CLOSE_WAIT_SECONDS = 5;

    private final ClientOptions options;
    private final ClientTls tls;
    private final ConcurrentHashMap<EventExecutor, LoopPools> loops = new ConcurrentHashMap<>();
    private final AtomicInteger nextOwn = new AtomicInteger();
    private volatile LoopPools[] own;
    private volatile boolean closed;
    private MultiThreadIoEventLoopGroup group;

    ClientLoops(ClientOptions options, ClientTls tls) {
        this.options = options;
        this.tls = tls;
    }

    /**
     * Starts a call on its loop; the returned future completes on that loop, with the caller's context
     * current when there is one.
     */
    ClientCall call(
            Endpoint endpoint,
            HttpRequest request,
            ClientTimeouts timeouts,
            CallerContext caller,
            RequestWritten written) {
        String key = endpoint.origin();
        LoopPools loop = choose(key);
        ClientCall call = new ClientCall(loop, key, endpoint, request, timeouts, caller, written);
        if (loop.loop.inEventLoop()) {
            loop.start(call);
        } else {
            try {
                loop.loop.execute(() -> loop.start(call));
            } catch (RejectedExecutionException e) {
                call.fail(new IllegalStateException("the event loop of the call is shutting down", e));
            }
        }
        return call;
    }

    boolean isClosed() {
        return closed;
    }

    /** The endpoint's pool counts summed over loops. */
    PoolStats stats(Endpoint endpoint) {
        String key = endpoint.origin();
        int active = 0;
        int idle = 0;
        int pending = 0;
        for (LoopPools loop : loops.values()) {
            ConnectionPool pool = loop.pool(key);
            if (pool != null) {
                active += pool.activeCount();
                idle += pool.idleCount();
                pending += pool.pendingCount();
            }
        }
        return new PoolStats(active, idle, pending);
    }

    /**
     * Closes every pool and WebSocket on every loop, stops the own loops and gives up the TLS context. Off an event
     * loop it waits (a few seconds at most) until that is done, close handshakes included; on one it cannot wait
     * without blocking, so it does not, and the own loops' stop cuts the handshakes their WebSockets started.
     */
    void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        boolean onLoop = ThreadExecutorMap.currentExecutor() != null;
        List<Future<List<ChannelFuture>>> closing = new ArrayList<>();
        for (LoopPools loop : loops.values()) {
            if (loop.loop.inEventLoop()) {
                loop.close();
            } else {
                try {
                    closing.add(loop.loop.submit(loop::close));
                } catch (RejectedExecutionException e) {
                    // That loop has stopped, and its connections with it.
                }
            }
        }
        loops.clear();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_WAIT_SECONDS);
        if (!onLoop) {
            awaitClosed(closing, deadline);
        }
        Future<?> stopped = group != null ? group.shutdownGracefully(0, 2, TimeUnit.SECONDS) : null;
        if (!onLoop && stopped != null) {
            stopped.awaitUninterruptibly(left(deadline), TimeUnit.NANOSECONDS);
        }
        tls.close();
    }

    /** Waits for each loop's pools to close, then for the WebSockets' close handshakes they started. */
    private static void awaitClosed(List<Future<List<ChannelFuture>>> closing, long deadline) {
        List<ChannelFuture> upgraded = new ArrayList<>();
        for (Future<List<ChannelFuture>> done : closing) {
            if (done.awaitUninterruptibly(left(deadline), TimeUnit.NANOSECONDS) && done.isSuccess()) {
                upgraded.addAll(done.getNow());
            }
        }
        for (ChannelFuture closed : upgraded) {
            closed.awaitUninterruptibly(left(deadline), TimeUnit.NANOSECONDS);
        }
    }

    private static long left(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    private LoopPools choose(String key) {
        EventExecutor current = ThreadExecutorMap.currentExecutor();
        if (current != null) {
            LoopPools here = loops.get(current);
            if (here == null) {
                here = adopt(current);
            }
            if (here != null) {
                return here;
            }
        }
        return ownLoop(key);
    }

    /** Starts using an event loop the client does not own, if its transport is one the client can use. */
    private LoopPools adopt(EventExecutor executor) {
        Transport transport = Transport.compatibleWith(executor);
        if (transport == null) {
            return null;
        }
        LoopPools created = new LoopPools((EventLoop) executor, transport, options, tls);
        LoopPools existing = loops.putIfAbsent(executor, created);
        if (existing != null) {
            return existing;
        }
        executor.terminationFuture().addListener(stopped -> loops.remove(executor));
        if (closed) {
            created.close(); // close() ran while this loop was being adopted; adoption happens on the loop.
        }
        return created;
    }

    private LoopPools ownLoop(String key) {
        LoopPools[] all = own;
        if (all == null) {
            all = startOwnLoops();
        }
        int start = Math.floorMod(nextOwn.getAndIncrement(), all.length);
        for (int i = 0; i < all.length && all.length > 1; i++) {
            LoopPools loop = all[(start + i) % all.length];
            ConnectionPool pool = loop.pool(key);
            if (pool != null && pool.idleCount() > 0) {
                return loop;
            }
        }
        return all[start];
    }

    private synchronized LoopPools[] startOwnLoops() {
        if (closed) {
            throw new IllegalStateException("the client is closed");
        }
        if (own == null) {
            Transport transport = Transport.resolve(options.transport());
            group = transport.newEventLoopGroup(options.eventLoopThreads(), "parry-client");
            List<LoopPools> started = new ArrayList<>(options.eventLoopThreads());
            for (EventExecutor executor : group) {
                LoopPools loop = new LoopPools((EventLoop) executor, transport, options, tls);
                loops.put(executor, loop);
                started.add(loop);
            }
            own = started.toArray(new LoopPools[0]);
        }
        return own;
    }
}
