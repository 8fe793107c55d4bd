package io.parry.ratelimit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.event.connection.ReconnectAttemptEvent;
import io.parry.ratelimit.redis.internal.GcraCommand;
import io.parry.testing.RedisProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Closing the store: Lettuce's connection, then its client, then its threads, with nothing logged at ERROR. */
class RedisRateLimitStoreTest {
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

    /** One decision, whatever its outcome. */
    private static void take(RedisRateLimitStore store) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        store.take("test:close", new String[] {"100000", "1000000", "1"}, Runnable::run, new GcraCommand.Reply() {
            @Override
            public void decided(long[] answer) {
                done.complete(null);
            }

            @Override
            public void failed(Throwable failure) {
                done.complete(null);
            }
        });
        done.get(5, TimeUnit.SECONDS);
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
