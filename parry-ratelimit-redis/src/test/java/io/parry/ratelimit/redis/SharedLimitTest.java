package io.parry.ratelimit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.ratelimit.RateLimit;
import io.parry.ratelimit.RateLimitFilter;
import io.parry.ratelimit.RateLimitKey;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.RedisProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two servers, each with its own connection to one Redis, enforce one limit together. */
@ExtendWith(NettyLeakExtension.class)
class SharedLimitTest {
    private static final long RATE = 50;
    private static final long BURST = 10;
    private static final Duration WARM_UP = Duration.ofSeconds(1);
    private static final Duration RUN = Duration.ofSeconds(6);

    @Test
    void twoInstancesSharingOneRedisEnforceOneLimitWithinFivePercent() throws Exception {
        try (RedisProcess redis = RedisProcess.start();
                RedisRateLimitStore first = RedisRateLimitStore.connect(redis.uri());
                RedisRateLimitStore second = RedisRateLimitStore.connect(redis.uri())) {
            first.ready().toCompletableFuture().join();
            second.ready().toCompletableFuture().join();
            RateLimit limit = RateLimit.builder().rate(RATE).burst(BURST).build();
            Server a = server(first, limit);
            Server b = server(second, limit);
            try {
                AtomicInteger allowed = new AtomicInteger();
                AtomicInteger refused = new AtomicInteger();
                HttpClient client = HttpClient.newHttpClient();
                // Counted only once the bucket is empty and the JIT warm: from then on, Redis admits RATE a second.
                long start = System.nanoTime() + WARM_UP.toNanos();
                long end = start + RUN.toNanos();
                List<Thread> threads = new ArrayList<>();
                for (Server server : List.of(a, b)) {
                    for (int t = 0; t < 3; t++) {
                        Thread thread = new Thread(() -> hammer(client, server, start, end, allowed, refused));
                        thread.start();
                        threads.add(thread);
                    }
                }
                for (Thread thread : threads) {
                    thread.join();
                }
                double seconds = RUN.toNanos() / 1e9;
                double expected = RATE * seconds;
                assertThat(refused.get())
                        .as("requests refused: the load must exceed the limit")
                        .isGreaterThan(allowed.get() / 4);
                assertThat((double) allowed.get())
                        .as("allowed in %.2f s at %d/s", seconds, RATE)
                        .isBetween(expected * 0.95, expected * 1.05);
            } finally {
                a.stop(Duration.ofSeconds(1));
                b.stop(Duration.ofSeconds(1));
            }
        }
    }

    private static Server server(RedisRateLimitStore store, RateLimit limit) {
        Handler hello = Handler.sync((ctx, request) -> HttpResponse.ofText("hello"));
        RedisRateLimiter limiter = RedisRateLimiter.builder(store, limit)
                .prefix("shared:")
                .timeout(Duration.ofSeconds(1))
                .failurePolicy(FailurePolicy.CLOSED)
                .build();
        return Server.builder()
                .handler(hello.with(RateLimitFilter.builder(limiter)
                        .key(RateLimitKey.route())
                        .build()))
                .options(o -> o.host("127.0.0.1").port(0))
                .build()
                .start();
    }

    /** Sends requests one after another until {@code end}; counts those sent and answered within [start, end]. */
    private static void hammer(
            HttpClient client, Server server, long start, long end, AtomicInteger allowed, AtomicInteger refused) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                .build();
        while (System.nanoTime() < end) {
            try {
                long sent = System.nanoTime();
                int status = client.send(request, BodyHandlers.discarding()).statusCode();
                if (sent >= start && System.nanoTime() <= end) {
                    (status == 200 ? allowed : refused).incrementAndGet();
                }
                assertThat(status).isIn(200, 429);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
