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
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two servers, each with its own connection to one Redis, enforce one limit together: they admit
 * what one token bucket would have admitted of the same requests. The requests' arrival times are
 * recorded and replayed through a bucket in the test, so the comparison holds however unevenly a
 * loaded machine sends them (a count against the rate times the run's length does not: while the
 * client threads are starved, the bucket fills to its burst and the tokens past it are lost).
 */
@ExtendWith(NettyLeakExtension.class)
class SharedLimitTest {
    private static final long RATE = 50;
    private static final long BURST = 10;
    private static final Duration RUN = Duration.ofSeconds(6);

    @Test
    void twoInstancesSharingOneRedisEnforceOneLimitWithinFivePercent() throws Exception {
        try (RedisProcess redis = RedisProcess.start();
                RedisRateLimitStore first = RedisRateLimitStore.connect(redis.uri());
                RedisRateLimitStore second = RedisRateLimitStore.connect(redis.uri())) {
            first.ready().toCompletableFuture().join();
            second.ready().toCompletableFuture().join();
            RateLimit limit = RateLimit.builder().rate(RATE).burst(BURST).build();
            Queue<Arrival> arrivals = new ConcurrentLinkedQueue<>();
            Server a = server(first, limit, arrivals);
            Server b = server(second, limit, arrivals);
            try {
                HttpClient client = HttpClient.newHttpClient();
                long end = System.nanoTime() + RUN.toNanos();
                List<Thread> threads = new ArrayList<>();
                for (Server server : List.of(a, b)) {
                    for (int t = 0; t < 3; t++) {
                        Thread thread = new Thread(() -> hammer(client, server, end));
                        thread.start();
                        threads.add(thread);
                    }
                }
                for (Thread thread : threads) {
                    thread.join();
                }
            } finally {
                a.stop(Duration.ofSeconds(1));
                b.stop(Duration.ofSeconds(1));
            }
            long allowed = arrivals.stream().filter(Arrival::allowed).count();
            long expected = replay(limit, arrivals);
            assertThat(arrivals.size() - allowed)
                    .as("requests refused: the load must exceed the limit")
                    .isGreaterThan(allowed / 4);
            assertThat((double) allowed)
                    .as("allowed of %d requests, where one bucket allows %d", arrivals.size(), expected)
                    .isBetween(expected * 0.95, expected * 1.05);
        }
    }

    /** When a request reached a server, and whether its limiter let it pass. */
    private record Arrival(long nanos, boolean allowed) {}

    /** How many of these requests one token bucket of this limit admits, in the order they arrived. */
    private static long replay(RateLimit limit, Queue<Arrival> arrivals) {
        List<Arrival> ordered = new ArrayList<>(arrivals);
        ordered.sort(Comparator.comparingLong(Arrival::nanos));
        long interval = limit.intervalNanos();
        long capacity = limit.capacityNanos();
        long full = Long.MIN_VALUE;
        long allowed = 0;
        for (Arrival arrival : ordered) {
            long now = arrival.nanos();
            long start = full == Long.MIN_VALUE || full - now < 0 ? now : full;
            if (start + interval - now <= capacity) {
                full = start + interval;
                allowed++;
            }
        }
        return allowed;
    }

    private static Server server(RedisRateLimitStore store, RateLimit limit, Queue<Arrival> arrivals) {
        Handler hello = Handler.sync((ctx, request) -> HttpResponse.ofText("hello"));
        RedisRateLimiter limiter = RedisRateLimiter.builder(store, limit)
                .prefix("shared:")
                .timeout(Duration.ofSeconds(1))
                .failurePolicy(FailurePolicy.CLOSED)
                .build();
        Handler limited = hello.with(
                RateLimitFilter.builder(limiter).key(RateLimitKey.route()).build());
        return Server.builder()
                .handler(limited.with((next, ctx, request) -> {
                    long arrived = System.nanoTime();
                    return next.handle(ctx, request).thenApply(response -> {
                        arrivals.add(new Arrival(arrived, response.status().code() == 200));
                        return response;
                    });
                }))
                .options(o -> o.host("127.0.0.1").port(0))
                .build()
                .start();
    }

    /** Sends requests one after another until {@code end}. */
    private static void hammer(HttpClient client, Server server, long end) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                .build();
        while (System.nanoTime() < end) {
            try {
                int status = client.send(request, BodyHandlers.discarding()).statusCode();
                assertThat(status).isIn(200, 429);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
