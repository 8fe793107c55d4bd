package io.parry.ratelimit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.event.connection.ReconnectAttemptEvent;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.lettuce.core.resource.Transports;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.parry.ratelimit.redis.internal.GcraCommand;
import io.parry.testing.RedisProcess;
import io.parry.transport.TransportKind;
import io.parry.transport.spi.Transport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * An event loop's decisions go over a connection of its own, on that loop; closing the store: Lettuce's
 * connections, then its client, then its threads, with nothing logged at ERROR or WARN.
 */
class RedisRateLimitStoreTest {
    /** Lettuce's I/O threads stalled: a loop's own connection, on that loop, still decides. */
    @Test
    void decidesOnTheAskingLoopsOwnConnectionWhileLettucesThreadsAreBusy() throws Exception {
        MultiThreadIoEventLoopGroup group =
                Transport.resolve(TransportKind.AUTO).newEventLoopGroup(1, "asking");
        CountDownLatch stalled = new CountDownLatch(1);
        try (RedisProcess redis = RedisProcess.start();
                RedisRateLimitStore store = RedisRateLimitStore.connect(redis.uri())) {
            store.ready().toCompletableFuture().get(5, TimeUnit.SECONDS);
            EventLoop loop = group.next();
            decideOn(loop, store).get(5, TimeUnit.SECONDS);
            EventLoopGroupProvider provider = store.resources().eventLoopGroupProvider();
            EventLoopGroup lettuce = provider.allocate(Transports.eventLoopGroupClass());
            lettuce.forEach(thread -> thread.execute(() -> awaitQuietly(stalled)));

            // The loop's own connection opens in the background; until then, its decisions wait on the stalled threads.
            boolean decided = false;
            for (int i = 0; i < 50 && !decided; i++) {
                try {
                    decideOn(loop, store).get(100, TimeUnit.MILLISECONDS);
                    decided = true;
                } catch (TimeoutException stillOnLettucesThreads) {
                    // the next attempt
                }
            }

            assertThat(decided).isTrue();
            stalled.countDown();
            provider.release(lettuce, 0, 2, TimeUnit.SECONDS);
        } finally {
            stalled.countDown();
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void closesWithoutAnErrorWhileConnected() throws Exception {
        try (RedisProcess redis = RedisProcess.start()) {
            String log = errorsWhile(() -> {
                RedisRateLimitStore store = RedisRateLimitStore.connect(redis.uri());
                store.ready().toCompletableFuture().get(5, TimeUnit.SECONDS);
                take(store);
                store.close();
            });

            assertThat(log).doesNotContain("ERROR").doesNotContain("Exception");
        }
    }

    /**
     * Lettuce 7.7, left to choose between epoll and io_uring, warned at every connection (the shared one and
     * each loop's) that it took epoll.
     */
    @Test
    void connectsWithoutAWarningAboutLettucesTransport() throws Exception {
        MultiThreadIoEventLoopGroup group =
                Transport.resolve(TransportKind.AUTO).newEventLoopGroup(2, "asking");
        try (RedisProcess redis = RedisProcess.start()) {
            String log = errorsWhile(() -> {
                try (RedisRateLimitStore store = RedisRateLimitStore.connect(redis.uri())) {
                    store.ready().toCompletableFuture().get(5, TimeUnit.SECONDS);
                    for (EventExecutor loop : group) {
                        decideOn((EventLoop) loop, store).get(5, TimeUnit.SECONDS);
                    }
                }
            });

            // Only the transport's warning here; what closing logs is the tests below.
            assertThat(log).doesNotContain("native transports are available");
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** The application's loops end after the store closed, as a service closes its store and then its server. */
    @Test
    void logsNoErrorOrWarningWhenLoopsThatUsedConnectionsOfTheirOwnEndAfterTheStore() throws Exception {
        String log = logOfAStop(RedisRateLimitStoreTest::decideOnEachLoopOverItsOwnConnection, false);

        assertThat(log).doesNotContain("ERROR").doesNotContain("WARN");
    }

    /** Each loop's first decision starts opening its own connection, which the close finds under way. */
    @Test
    void logsNoErrorOrWarningWhenClosedWhileLoopsOpenConnectionsOfTheirOwn() throws Exception {
        String log = logOfAStop(RedisRateLimitStoreTest::decideOnEachLoop, false);

        assertThat(log).doesNotContain("ERROR").doesNotContain("WARN");
    }

    /** The application's loops end first, as a server stopped before the store is closed. */
    @Test
    void logsNoErrorOrWarningWhenLoopsThatUsedConnectionsOfTheirOwnEndBeforeTheStore() throws Exception {
        String log = logOfAStop(RedisRateLimitStoreTest::decideOnEachLoopOverItsOwnConnection, true);

        assertThat(log).doesNotContain("ERROR").doesNotContain("WARN");
    }

    /**
     * What is logged while a store is used on two event loops and then closed, the loops ending before the store
     * ({@code loopsFirst}) or after it.
     */
    private static String logOfAStop(StoreUse use, boolean loopsFirst) throws Exception {
        MultiThreadIoEventLoopGroup group =
                Transport.resolve(TransportKind.AUTO).newEventLoopGroup(2, "asking");
        try (RedisProcess redis = RedisProcess.start()) {
            return errorsWhile(() -> {
                RedisRateLimitStore store = RedisRateLimitStore.connect(redis.uri());
                store.ready().toCompletableFuture().get(5, TimeUnit.SECONDS);
                use.on(group, store);
                if (loopsFirst) {
                    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
                }
                store.close();
                group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            });
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private interface StoreUse {
        void on(MultiThreadIoEventLoopGroup group, RedisRateLimitStore store) throws Exception;
    }

    /** The attempt under way may fail with a warning; no task may be refused by a terminated loop. */
    @Test
    void closesWithoutAnErrorWhileItIsReconnectingToARedisThatWentAway() throws Exception {
        try (RedisProcess redis = RedisProcess.start()) {
            String log = errorsWhile(() -> {
                RedisRateLimitStore store = RedisRateLimitStore.connect(redis.uri());
                store.ready().toCompletableFuture().get(5, TimeUnit.SECONDS);
                CompletableFuture<Void> reconnecting = new CompletableFuture<>();
                store.resources()
                        .eventBus()
                        .get()
                        .filter(event -> event instanceof ReconnectAttemptEvent)
                        .subscribe(event -> reconnecting.complete(null));
                redis.kill();
                reconnecting.get(5, TimeUnit.SECONDS);
                store.close();
            });

            assertThat(log).doesNotContain("ERROR").doesNotContain("RejectedExecutionException");
        }
    }

    /** One decision on each loop: each starts opening the loop's own connection. */
    private static void decideOnEachLoop(MultiThreadIoEventLoopGroup group, RedisRateLimitStore store)
            throws Exception {
        for (EventExecutor loop : group) {
            decideOn((EventLoop) loop, store).get(5, TimeUnit.SECONDS);
        }
    }

    /** Decides on each loop until every loop's own connection is open, then once more over it. */
    private static void decideOnEachLoopOverItsOwnConnection(
            MultiThreadIoEventLoopGroup group, RedisRateLimitStore store) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (store.openLoopConnections() < group.executorCount() && System.nanoTime() < deadline) {
            decideOnEachLoop(group, store);
        }
        assertThat(store.openLoopConnections()).isEqualTo(group.executorCount());
        decideOnEachLoop(group, store);
    }

    /** A decision asked on {@code loop}'s thread; completes once decided. */
    private static CompletableFuture<Void> decideOn(EventLoop loop, RedisRateLimitStore store) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.execute(() -> ask(store, "test:loop", loop, done));
        return done;
    }

    /** Asks for one token of {@code bucket}; {@code done} completes with the answer or the failure. */
    private static void ask(RedisRateLimitStore store, String bucket, Executor loop, CompletableFuture<Void> done) {
        store.take(bucket, new String[] {"1000", "1000000", "1"}, loop, new GcraCommand.Reply() {
            @Override
            public void decided(long[] answer) {
                done.complete(null);
            }

            @Override
            public void failed(Throwable failure) {
                done.completeExceptionally(failure);
            }
        });
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One decision, whatever its outcome. */
    private static void take(RedisRateLimitStore store) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        ask(store, "test:close", Runnable::run, done);
        done.handle((answer, failure) -> null).get(5, TimeUnit.SECONDS);
    }

    /** What SLF4J's simple logger (on standard error) printed while this ran. */
    private static String errorsWhile(ThrowingRunnable action) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        original.print(text);
        return text;
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
