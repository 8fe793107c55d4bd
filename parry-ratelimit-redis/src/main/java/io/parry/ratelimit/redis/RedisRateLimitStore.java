package io.parry.ratelimit.redis;

import static java.util.Objects.requireNonNull;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.internal.ThreadExecutorMap;
import io.parry.ratelimit.redis.internal.GcraCommand;
import io.parry.ratelimit.redis.internal.GcraScript;
import io.parry.ratelimit.redis.internal.LettuceTransport;
import io.parry.ratelimit.redis.internal.Pipeline;
import io.parry.transport.spi.EventLoopScheduler;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections to Redis shared by every {@link RedisRateLimiter} made from it: Lettuce, asynchronous
 * and pipelined (the commands an event loop makes while it runs leave in one write, and their replies
 * come back to it in one task), reconnecting by itself after Redis restarts. Each of the application's
 * event loops that asks gets a connection of its own, registered on that loop, so that its commands are
 * written and their replies read on its own thread; one more connection, on Lettuce's threads, serves
 * callers off the loops and a loop whose own is not open yet. Make one per Redis and process; {@link
 * #close()} it when done.
 *
 * <pre>{@code
 * RedisRateLimitStore redis = RedisRateLimitStore.connect("redis://127.0.0.1:6379");
 * RateLimiter limiter = RedisRateLimiter.builder(redis, RateLimit.perSecond(100)).prefix("hello:").build();
 * }</pre>
 *
 * <p>At most 65,536 commands wait for replies; past that (a Redis that stalls under load), decisions fail
 * at once and limiters follow their {@link FailurePolicy}. Connecting does not wait for Redis: while it is unreachable, commands fail at once (and limiters
 * follow their {@link FailurePolicy}), and the store keeps trying, every second at most. Lettuce runs on
 * the application's Netty and two I/O threads of its own (Lettuce's least). Thread-safe.
 */
public final class RedisRateLimitStore implements AutoCloseable {
    static {
        LettuceTransport.chooseEpoll(); // Before any of Lettuce's classes is initialised.
    }

    private static final Logger log = LoggerFactory.getLogger(RedisRateLimitStore.class);
    private static final long RECONNECT_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int MAX_IN_FLIGHT = 65_536;
    private static final Duration QUIET = Duration.ofMillis(100);

    private final RedisURI uri;
    private final ClientResources resources;
    private final ClientOptions options;
    private final RedisClient client;
    private final AtomicBoolean connecting = new AtomicBoolean();
    private final FastThreadLocal<Pipeline> pipelines = new FastThreadLocal<>() {
        @Override
        protected Pipeline initialValue() {
            return new Pipeline();
        }
    };
    private final FastThreadLocal<LoopConnection> loopConnections = new FastThreadLocal<>();
    private final Queue<LoopConnection> opened = new ConcurrentLinkedQueue<>();
    private volatile StatefulRedisConnection<String, String> connection;
    private volatile CompletableFuture<Void> attempt = new CompletableFuture<>();
    private volatile long lastAttempt;
    private volatile boolean closed;

    private RedisRateLimitStore(RedisURI uri) {
        this.uri = uri;
        this.resources = ClientResources.builder()
                .ioThreadPoolSize(2)
                .computationThreadPoolSize(2)
                .commandLatencyRecorder(CommandLatencyRecorder.disabled())
                .reconnectDelay(
                        Delay.exponential(Duration.ofMillis(10), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
                .build();
        this.options = ClientOptions.builder()
                .autoReconnect(true)
                // Fail at once while disconnected: a queue of commands waiting for Redis would only time out.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                // A Redis that stalls keeps every command sent to it: past this many, commands fail at once.
                .requestQueueSize(MAX_IN_FLIGHT)
                // Each limiter times its own decisions out on the request's loop; Lettuce's own command
                // timeout (a minute by default) only added a timer of its wheel per command.
                .timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
                .socketOptions(SocketOptions.builder()
                        .connectTimeout(Duration.ofSeconds(1))
                        .build())
                .build();
        this.client = RedisClient.create(resources, uri);
        client.setOptions(options);
        this.lastAttempt = System.nanoTime() - RECONNECT_NANOS;
    }

    /**
     * A store on the Redis at this URI, such as {@code redis://127.0.0.1:6379}, {@code
     * redis://:password@host:6379/2} or {@code rediss://host} for TLS; the first connection is opened in
     * the background.
     *
     * @throws IllegalArgumentException if the URI is not a Redis URI
     */
    public static RedisRateLimitStore connect(String uri) {
        requireNonNull(uri, "uri");
        RedisURI parsed;
        try {
            parsed = RedisURI.create(uri);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "uri: " + uri + " (expected: a Redis URI such as redis://127.0.0.1:6379)");
        }
        RedisRateLimitStore store = new RedisRateLimitStore(parsed);
        store.reconnectIfDue();
        return store;
    }

    /**
     * Completes when a connection is open, or fails with why the latest attempt could not open one: for
     * start-up, which may wait for it off the event loops, and tests.
     */
    public CompletionStage<Void> ready() {
        return connection != null ? CompletableFuture.completedFuture(null) : attempt;
    }

    /** Whether a connection is open now. */
    public boolean isConnected() {
        StatefulRedisConnection<String, String> open = connection;
        return open != null && open.isOpen();
    }

    /** Closes the connection and Lettuce's threads; limiters made from this store fail afterwards. */
    @Override
    public void close() {
        closed = true;
        for (LoopConnection own = opened.poll(); own != null; own = opened.poll()) {
            own.close();
        }
        StatefulRedisConnection<String, String> open = connection;
        if (open != null) {
            open.close();
        }
        // A reconnect attempt may already be running on Lettuce's computation thread: a quiet period
        // keeps the I/O loops taking its channel's tasks (refused by a terminated loop, which Netty logs
        // at ERROR) until the attempt gives up.
        // Bounded, unlike Lettuce's blocking shutdown, which waits for every connection's close: one
        // registered on a Parry event loop that has ended may never complete it (a test hung 14 minutes).
        awaitShutdown(client.shutdownAsync(QUIET.toMillis(), 2000, TimeUnit.MILLISECONDS));
        awaitShutdown(resources.shutdown(QUIET.toMillis(), 2000, TimeUnit.MILLISECONDS));
    }

    /** Waits for Lettuce's threads to end, so that nothing of it is left running (or logging) once closed. */
    private void awaitShutdown(Future<?> shutdown) {
        try {
            shutdown.get(3, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("Lettuce's threads for {} did not stop in time ({})", this, e.toString());
        }
    }

    /** How many event loops have a connection of their own open, for tests. */
    int openLoopConnections() {
        int open = 0;
        for (LoopConnection own : opened) {
            if (own.isOpen()) {
                open++;
            }
        }
        return open;
    }

    /** Lettuce's threads and event bus, for tests. */
    ClientResources resources() {
        return resources;
    }

    @Override
    public String toString() {
        return "RedisRateLimitStore{" + uri.getHost() + ":" + uri.getPort() + "}";
    }

    /**
     * Runs the GCRA script for a bucket: {@code EVALSHA}, and {@code EVAL} when Redis answers {@code
     * NOSCRIPT} (it restarted and lost its script cache; {@code EVAL} loads it again).
     */
    void take(String bucket, String[] args, Executor loop, GcraCommand.Reply reply) {
        StatefulRedisConnection<String, String> open = connection;
        if (open == null) {
            reconnectIfDue();
            reply.failed(new IllegalStateException("not connected to Redis at " + this));
            return;
        }
        GcraCommand command = new GcraCommand(bucket, args, loop, reply);
        if (onItsThread(loop)) {
            StatefulRedisConnection<String, String> own = loopConnection(loop);
            pipelines.get().send(own != null ? own : open, command);
        } else {
            Pipeline.sendNow(open, command);
        }
    }

    /**
     * Runs the script by {@code EVAL}, which loads it again: after {@code NOSCRIPT}, when a restarted
     * Redis lost its script cache. The reply comes on {@code loop}.
     */
    void takeLoading(String bucket, String[] args, Executor loop, GcraCommand.Reply reply) {
        StatefulRedisConnection<String, String> open = connection;
        if (open == null) {
            reply.failed(new IllegalStateException("not connected to Redis at " + this));
            return;
        }
        open.async()
                .<List<Long>>eval(GcraScript.TEXT, ScriptOutputType.MULTI, new String[] {bucket}, args)
                .whenComplete((answer, failure) -> loop.execute(() -> {
                    if (failure != null) {
                        reply.failed(failure);
                    } else {
                        reply.decided(new long[] {answer.get(0), answer.get(1), answer.get(2), answer.get(3)});
                    }
                }));
    }

    /**
     * The open connection of the event loop this runs on, or {@code null} while it has none (then the
     * shared connection serves): made on the loop's first command.
     */
    private StatefulRedisConnection<String, String> loopConnection(Executor loop) {
        LoopConnection own;
        if (loopConnections.isSet()) {
            own = loopConnections.get();
        } else {
            own = closed ? null : LoopConnection.on(executorOf(loop), resources, options, uri);
            loopConnections.set(own);
            if (own != null) {
                opened.add(own);
                if (closed && opened.remove(own)) {
                    own.close();
                }
            }
        }
        return own == null ? null : own.connection();
    }

    /** The event loop whose thread this runs on: {@code take} checked that it runs on one. */
    private static EventExecutor executorOf(Executor loop) {
        return loop instanceof EventExecutor executor ? executor : ThreadExecutorMap.currentExecutor();
    }

    static boolean onItsThread(Executor loop) {
        return loop instanceof EventLoopScheduler scheduler
                ? scheduler.inEventLoop()
                : loop instanceof EventExecutor executor && executor.inEventLoop();
    }

    /** Whether Redis answered {@code NOSCRIPT}: it does not know the script (it restarted). */
    static boolean isNoScript(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof io.lettuce.core.RedisNoScriptException
                    || (t.getMessage() != null && t.getMessage().startsWith("NOSCRIPT"))) {
                return true;
            }
        }
        return false;
    }

    private void reconnectIfDue() {
        long now = System.nanoTime();
        if (closed || now - lastAttempt < RECONNECT_NANOS || !connecting.compareAndSet(false, true)) {
            return;
        }
        lastAttempt = now;
        CompletableFuture<Void> result = attempt.isDone() ? new CompletableFuture<>() : attempt;
        attempt = result;
        client.connectAsync(StringCodec.UTF8, uri).whenComplete((open, failure) -> {
            connecting.set(false);
            if (failure != null) {
                log.warn("Cannot connect to Redis at {} ({}); trying again", this, failure.toString());
                result.completeExceptionally(failure);
            } else {
                adopt(open);
                result.complete(null);
            }
        });
    }

    private synchronized void adopt(StatefulRedisConnection<String, String> open) {
        if (connection == null && !closed) {
            connection = open;
            // Loaded now, so that the first request does not pay for NOSCRIPT and a second round trip.
            open.async().scriptLoad(GcraScript.TEXT);
            log.info("Connected to Redis at {}", this);
        } else {
            open.closeAsync();
        }
    }
}
