package io.parry.ratelimit.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.lettuce.core.resource.Transports;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.parry.transport.spi.Transport;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection to Redis whose channel is registered on one of the application's event loops, so that
 * the commands that loop makes are written, and their replies read, on its own thread: no task handed
 * to Lettuce's I/O thread and none handed back, which made a round trip per request dear. Opened on the
 * loop's first command, again every second at most while it cannot be; Lettuce reconnects it after
 * Redis restarts, on the same loop, and stops trying once the loop shuts down. Used by its loop's
 * thread; closed by any.
 */
final class LoopConnection {
    private static final Logger log = LoggerFactory.getLogger(LoopConnection.class);
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RedisURI uri;
    private final EventLoop loop;
    private final RedisClient client;
    private final ClientResources resources;
    private final AtomicBoolean connecting = new AtomicBoolean();
    private final Runnable shutdownHook = this::closeOnLoop;
    private volatile StatefulRedisConnection<String, String> connection;
    /** The latest attempt to open the connection; completes once it opened it or failed. */
    private volatile CompletableFuture<Void> attempt;

    private volatile boolean closed;
    /** Whether {@link #close()} shut the client down, which closes the connection: the loop need not. */
    private volatile boolean clientShutDown;

    private long lastAttempt;

    private LoopConnection(ClientResources shared, ClientOptions options, RedisURI uri, EventLoop loop) {
        this.loop = loop;
        // Lettuce's threads, timer and event bus stay shared; its channels go to this loop instead of its own. A copy
        // made by mutate() keeps the original's ownership, so its shutdown stopped the store's threads and timer under
        // the other loops' connections (their closes then failed to notify: Netty's ERROR); named again, they are
        // marked shared, and this copy owns none of them.
        this.resources = shared.mutate()
                .eventLoopGroupProvider(new OnThisLoop(loop))
                .eventExecutorGroup(shared.eventExecutorGroup())
                .timer(shared.timer())
                .commandLatencyRecorder(shared.commandLatencyRecorder())
                .build();
        this.uri = uri;
        this.client = RedisClient.create(resources, uri);
        client.setOptions(options);
        this.lastAttempt = System.nanoTime() - RETRY_NANOS;
        if (loop instanceof SingleThreadEventExecutor stopping) {
            // Closed while the loop still runs tasks: a channel the loop drops as it ends is never
            // unregistered, and Lettuce frees its read buffer only then.
            stopping.addShutdownHook(shutdownHook);
        }
    }

    /**
     * Closes the connection from its loop's thread as the loop shuts down; waits for nothing. Not when the store
     * shut its client down already: Lettuce warns of a second close.
     */
    private void closeOnLoop() {
        if (clientShutDown) {
            return;
        }
        closed = true;
        StatefulRedisConnection<String, String> open = connection;
        if (open != null) {
            open.closeAsync();
        }
    }

    /**
     * A connection for this event loop, or {@code null} when Lettuce's channels cannot register on it: it
     * is not a Netty event loop, or not of the transport Lettuce picked (NIO loops while Lettuce uses
     * epoll); then the store's shared connection serves it.
     */
    static LoopConnection on(EventExecutor executor, ClientResources shared, ClientOptions options, RedisURI uri) {
        Transport transport = executor == null ? null : Transport.compatibleWith(executor);
        if (transport == null
                || transport.socketChannelType() != Transports.socketChannelClass()
                || !(executor instanceof EventLoop loop)) {
            return null;
        }
        return new LoopConnection(shared, options, uri, loop);
    }

    /** The open connection, or {@code null} while there is none (then it is opened, if due). */
    StatefulRedisConnection<String, String> connection() {
        StatefulRedisConnection<String, String> open = connection;
        if (open == null) {
            connectIfDue();
        }
        return open;
    }

    boolean isOpen() {
        StatefulRedisConnection<String, String> open = connection;
        return open != null && open.isOpen();
    }

    /**
     * Closes the connection, waiting two seconds at most; one being opened is waited for first. Once its
     * loop shuts down, there is nothing to wait for: the loop took the channel with it, and would not run
     * the task that closes it.
     *
     * <p>An attempt under way is waited for, and then the client, before the resources are shut down: the client's
     * channels close on the loop, and the future that gathers their closes notifies its listeners on one of Lettuce's
     * threads, which the store stops next. A close left to run later (as the loop ended) found that thread gone, and
     * Netty logged an error.
     */
    void close() {
        closed = true;
        if (!loop.isShuttingDown()) {
            if (loop instanceof SingleThreadEventExecutor stopping) {
                stopping.removeShutdownHook(shutdownHook);
            }
            CompletableFuture<Void> opening = attempt;
            if (opening != null) {
                await(opening);
            }
            clientShutDown = true;
            await(client.shutdownAsync(0, 2, TimeUnit.SECONDS));
        }
        resources.shutdown(0, 0, TimeUnit.SECONDS);
    }

    private void await(java.util.concurrent.Future<?> closing) {
        try {
            closing.get(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.debug("The connection to {} of {} did not close in time ({})", uri, loop, e.toString());
        }
    }

    private void connectIfDue() {
        long now = System.nanoTime();
        if (closed || now - lastAttempt < RETRY_NANOS || !connecting.compareAndSet(false, true)) {
            return;
        }
        lastAttempt = now;
        CompletableFuture<Void> opening = new CompletableFuture<>();
        attempt = opening;
        try {
            // Off the loop: building the connection takes the loop longer than a decision's timeout may wait.
            resources.eventExecutorGroup().execute(() -> connect(opening));
        } catch (RejectedExecutionException closing) {
            connecting.set(false);
            opening.complete(null);
        }
    }

    private void connect(CompletableFuture<Void> opening) {
        if (closed) {
            connecting.set(false);
            opening.complete(null);
            return;
        }
        client.connectAsync(StringCodec.UTF8, uri).whenComplete((open, failure) -> {
            if (failure != null) {
                log.debug("Cannot open the connection to {} of {} ({})", uri, loop, failure.toString());
            } else {
                connection = open;
                if (closed && loop.isShuttingDown()) {
                    // Closed while its loop ended: no one else will close it.
                    open.closeAsync();
                }
            }
            connecting.set(false);
            opening.complete(null);
        });
    }

    /**
     * Gives Lettuce the application's event loop for its channels; never shuts it down (the application
     * owns it).
     */
    private static final class OnThisLoop implements EventLoopGroupProvider {
        private final EventLoop loop;

        OnThisLoop(EventLoop loop) {
            this.loop = loop;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T extends EventLoopGroup> T allocate(Class<T> type) {
            // Lettuce asks for its transport's group class but only uses it as an EventLoopGroup.
            return (T) loop;
        }

        @Override
        public int threadPoolSize() {
            return 1;
        }

        @Override
        public Future<Boolean> release(EventExecutorGroup group, long quietPeriod, long timeout, TimeUnit unit) {
            return ImmediateEventExecutor.INSTANCE.newSucceededFuture(true);
        }

        @Override
        public Future<Boolean> shutdown(long quietPeriod, long timeout, TimeUnit unit) {
            return ImmediateEventExecutor.INSTANCE.newSucceededFuture(true);
        }
    }
}
