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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NettyLeakExtension.class)
class RedisRateLimiterTest {
    /** The servers' event loops. */
    private static final int LOOPS = 2;

    private final HttpClient client = HttpClient.newHttpClient();
    private final List<AutoCloseable> resources = new ArrayList<>();
    private RedisProcess redis;

    @BeforeEach
    void startRedis() throws Exception {
        redis = RedisProcess.start();
    }

    @AfterEach
    void stopAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        redis.close();
    }

    private Server server(RateLimit limit, Consumer<RedisRateLimiter.Builder> options) {
        RedisRateLimitStore store = RedisRateLimitStore.connect(redis.uri());
        resources.add(store);
        store.ready().toCompletableFuture().join();
        RedisRateLimiter.Builder limiter =
                RedisRateLimiter.builder(store, limit).prefix("test:");
        options.accept(limiter);
        Handler hello = Handler.sync((ctx, request) -> HttpResponse.ofText("hello"));
        Server server = Server.builder()
                .handler(hello.with(RateLimitFilter.builder(limiter.build())
                        .name("hello")
                        .key(RateLimitKey.route())
                        .build()))
                .options(o -> o.host("127.0.0.1").port(0).eventLoopThreads(LOOPS))
                .build()
                .start();
        resources.add(() -> server.stop(Duration.ofSeconds(1)));
        return server;
    }

    private java.net.http.HttpResponse<String> get(Server server) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                        .build(),
                BodyHandlers.ofString());
    }

    @Test
    void refusesPastTheBurstWithRetryAfterFromRedisClock() throws Exception {
        Server server = server(oneAMinute(3), b -> b.timeout(Duration.ofSeconds(1)));
        for (int i = 0; i < 3; i++) {
            java.net.http.HttpResponse<String> response = get(server);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("RateLimit"))
                    .hasValueSatisfying(v -> v.startsWith("\"hello\";r="));
        }
        java.net.http.HttpResponse<String> refused = get(server);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("60");
        assertThat(redis.command("EXISTS test:")).isEqualTo(":1");
    }

    @Test
    void loadsTheScriptAgainAfterRedisForgetsIt() throws Exception {
        Server server = server(RateLimit.perSecond(100), b -> b.timeout(Duration.ofSeconds(1)));
        assertThat(get(server).statusCode()).isEqualTo(200);
        assertThat(redis.command("SCRIPT FLUSH")).isEqualTo("+OK");
        assertThat(get(server).statusCode()).isEqualTo(200);
        assertThat(get(server).headers().firstValue("RateLimit")).hasValueSatisfying(v -> v.contains(";r=97;"));
    }

    @Test
    void letsRequestsPassWhileRedisIsDownWhenFailingOpenAndRecoversByItself() throws Exception {
        Server server =
                server(oneAMinute(1), b -> b.failurePolicy(FailurePolicy.OPEN).timeout(Duration.ofSeconds(1)));
        assertThat(get(server).statusCode()).isEqualTo(200);
        assertThat(get(server).statusCode()).isEqualTo(429);
        redis.kill();
        java.net.http.HttpResponse<String> open = get(server);
        assertThat(open.statusCode()).isEqualTo(200);
        assertThat(open.headers().firstValue("RateLimit")).isEmpty();
        redis.startAgain();
        awaitStatus(server, 200, "RateLimit");
        assertThat(get(server).statusCode()).isEqualTo(429);
    }

    @Test
    void refusesRequestsWhileRedisIsDownWhenFailingClosedAndRecoversByItself() throws Exception {
        Server server = server(RateLimit.perSecond(100), b -> b.failurePolicy(FailurePolicy.CLOSED)
                .timeout(Duration.ofSeconds(1)));
        assertThat(get(server).statusCode()).isEqualTo(200);
        redis.kill();
        java.net.http.HttpResponse<String> closed = get(server);
        assertThat(closed.statusCode()).isEqualTo(503);
        assertThat(closed.headers().firstValue("Retry-After")).hasValue("1");
        redis.startAgain();
        awaitStatus(server, 200, "RateLimit");
    }

    @Test
    void keepsAnsweringUnderLoadThroughARedisCrashAndLimitsAgainOnceItIsBack() throws Exception {
        Server server = server(RateLimit.builder().rate(20).burst(20).build(), b -> b.failurePolicy(FailurePolicy.OPEN)
                .timeout(Duration.ofSeconds(1)));
        Set<Integer> statuses = ConcurrentHashMap.newKeySet();
        AtomicReference<String> phase = new AtomicReference<>("before");
        Map<String, CountDownLatch> seen =
                Map.of("before", new CountDownLatch(1), "down", new CountDownLatch(20), "after", new CountDownLatch(1));
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> load = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            Thread thread = new Thread(() -> {
                while (running.get()) {
                    try {
                        java.net.http.HttpResponse<String> response = get(server);
                        statuses.add(response.statusCode());
                        String now = phase.get();
                        boolean limited = response.statusCode() == 429;
                        boolean unlimited = response.statusCode() == 200
                                && response.headers().firstValue("RateLimit").isEmpty();
                        if ((now.equals("down") && unlimited) || (!now.equals("down") && limited)) {
                            seen.get(now).countDown();
                        }
                    } catch (Exception e) {
                        statuses.add(-1);
                    }
                }
            });
            thread.start();
            load.add(thread);
        }
        try {
            assertThat(seen.get("before").await(10, TimeUnit.SECONDS))
                    .as("a 429 before the crash")
                    .isTrue();
            redis.kill();
            phase.set("down");
            assertThat(seen.get("down").await(10, TimeUnit.SECONDS))
                    .as("requests let through while down")
                    .isTrue();
            redis.startAgain();
            phase.set("after");
            assertThat(seen.get("after").await(10, TimeUnit.SECONDS))
                    .as("a 429 after the restart")
                    .isTrue();
        } finally {
            running.set(false);
            for (Thread thread : load) {
                thread.join();
            }
        }
        assertThat(statuses).containsOnly(200, 429);
    }

    @Test
    void followsThePolicyWhenRedisIsSlowerThanTheTimeout() throws Exception {
        Server server = server(RateLimit.perSecond(100), b -> b.failurePolicy(FailurePolicy.CLOSED)
                .timeout(Duration.ofMillis(50)));
        assertThat(get(server).statusCode()).isEqualTo(200);
        Thread sleeper = new Thread(() -> redis.command("DEBUG SLEEP 1"));
        sleeper.start();
        awaitStatus(server, 503, null);
        sleeper.join();
        awaitStatus(server, 200, "RateLimit");
    }

    @Test
    void handsOutReservedTokensWithoutARoundTrip() throws Exception {
        Server server = server(oneAMinute(10), b -> b.batch(5).timeout(Duration.ofSeconds(1)));
        assertThat(get(server).statusCode()).isEqualTo(200);
        // One round trip took five tokens: Redis's bucket owes five, not one.
        assertThat(redis.command("SCRIPT FLUSH")).isEqualTo("+OK");
        redis.kill();
        redis.startAgain();
        for (int i = 0; i < 4; i++) {
            assertThat(get(server).statusCode()).isEqualTo(200);
        }
        assertThat(redis.command("EXISTS test:")).isEqualTo(":0");
    }

    @Test
    void asksRedisOncePerBatchWhileReservedTokensLast() throws Exception {
        // At a million a second, 100 tokens accrue in 100 us: far less than a round trip, so tokens held only
        // for that long sent nearly every request to Redis.
        Server server = server(RateLimit.perSecond(1_000_000), b -> b.batch(100).timeout(Duration.ofSeconds(1)));
        int requests = 1000;
        int clients = 8;
        ExecutorService senders = Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        try {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                statuses.add(senders.submit(() -> get(server).statusCode()));
            }
            for (Future<Integer> status : statuses) {
                assertThat(status.get(30, TimeUnit.SECONDS)).isEqualTo(200);
            }
        } finally {
            senders.shutdownNow();
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        // A round trip per 100 requests, and one more per event loop for the tokens it still holds; requests
        // that came while a loop's reservation was under way waited for it instead of asking too. Tokens are
        // held for a second: on a loaded machine the run may last longer, and each loop may then drop what
        // is left of a reservation and ask once more for each second the run lasted.
        assertThat(scriptCalls()).isBetween(requests / 100L, requests / 100L + LOOPS * (1 + seconds));
    }

    @Test
    void refusesTheRequestsWaitingForAReservationThatFindsTheBucketEmpty() throws Exception {
        Server server = server(oneAMinute(10), b -> b.batch(4).timeout(Duration.ofSeconds(1)));
        for (int i = 0; i < 10; i++) {
            assertThat(get(server).statusCode()).isEqualTo(200);
        }
        java.net.http.HttpResponse<String> refused = get(server);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("60");
        assertThat(scriptCalls()).isEqualTo(4);
    }

    /** A token a minute, the bucket holding {@code burst}: nothing refills during a test. */
    private static RateLimit oneAMinute(long burst) {
        return RateLimit.perSecond(1).toBuilder()
                .period(Duration.ofMinutes(1))
                .burst(burst)
                .build();
    }

    /** How many times Redis ran the limiter's script by its SHA-1. */
    private long scriptCalls() {
        String reply = redis.command("EVAL \"return tonumber(string.match(redis.call('INFO', 'commandstats'),"
                + " 'cmdstat_evalsha:calls=(%d+)') or 0)\" 0");
        assertThat(reply).startsWith(":");
        return Long.parseLong(reply.substring(1));
    }

    /** Polls until a response has the status (and field): recovery is Lettuce's reconnect, which has no event to await. */
    private void awaitStatus(Server server, int status, String field) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            java.net.http.HttpResponse<String> response = get(server);
            if (response.statusCode() == status
                    && (field == null || response.headers().firstValue(field).isPresent())) {
                return;
            }
            assertThat(System.nanoTime())
                    .as("a %d response within 10 s", status)
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
