package io.parry.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LocalRateLimiterTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private LocalRateLimiter limiter(RateLimit limit, int maxKeys) {
        return LocalRateLimiter.of(limit, maxKeys, now::get);
    }

    private static RateLimit oneAMinute(long burst) {
        return RateLimit.builder()
                .rate(1)
                .period(Duration.ofMinutes(1))
                .burst(burst)
                .build();
    }

    @Test
    void letsABurstPassAtOnceThenRefusesWithTheTimeUntilTheNextToken() {
        LocalRateLimiter limiter =
                limiter(RateLimit.builder().rate(100).burst(100).build(), 10);
        for (int i = 0; i < 100; i++) {
            RateLimitDecision decision = limiter.tryAcquire("a");
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.remaining()).isEqualTo(99 - i);
        }
        RateLimitDecision refused = limiter.tryAcquire("a");
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfterNanos()).isEqualTo(Duration.ofMillis(10).toNanos());
        assertThat(refused.resetNanos()).isEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void refillsAtTheRateAndNeverAboveTheBurst() {
        LocalRateLimiter limiter = limiter(RateLimit.builder().rate(10).burst(2).build(), 10);
        assertThat(limiter.tryAcquire("a").allowed()).isTrue();
        assertThat(limiter.tryAcquire("a").allowed()).isTrue();
        assertThat(limiter.tryAcquire("a").allowed()).isFalse();
        now.addAndGet(Duration.ofMillis(100).toNanos());
        assertThat(limiter.tryAcquire("a").allowed()).isTrue();
        assertThat(limiter.tryAcquire("a").allowed()).isFalse();
        now.addAndGet(Duration.ofHours(1).toNanos());
        assertThat(limiter.tryAcquire("a").remaining()).isEqualTo(1);
        assertThat(limiter.tryAcquire("a").allowed()).isTrue();
        assertThat(limiter.tryAcquire("a").allowed()).isFalse();
    }

    @Test
    void keepsOneBucketPerKey() {
        LocalRateLimiter limiter = limiter(RateLimit.builder().rate(1).burst(1).build(), 10);
        assertThat(limiter.tryAcquire("a").allowed()).isTrue();
        assertThat(limiter.tryAcquire("a").allowed()).isFalse();
        assertThat(limiter.tryAcquire("b").allowed()).isTrue();
    }

    @Test
    void staysWithinItsBoundUnderAMillionDistinctKeys() {
        LocalRateLimiter limiter = limiter(oneAMinute(5), 10_000);
        int maxSeen = 0;
        for (int i = 0; i < 1_000_000; i++) {
            assertThat(limiter.tryAcquire("client-" + i).allowed()).isTrue();
            maxSeen = Math.max(maxSeen, limiter.keys());
            now.addAndGet(1_000);
        }
        assertThat(maxSeen).isLessThanOrEqualTo(10_001);
        assertThat(limiter.keys()).isLessThanOrEqualTo(10_001);
    }

    @Test
    void forgetsFullBucketsFirstWhenSweeping() {
        LocalRateLimiter limiter = limiter(RateLimit.builder().rate(1).burst(3).build(), 5);
        limiter.tryAcquire("busy");
        limiter.tryAcquire("busy");
        limiter.tryAcquire("busy");
        for (int i = 0; i < 4; i++) {
            limiter.tryAcquire("idle-" + i);
        }
        // The idle buckets refill within a second; "busy" still owes two tokens then.
        now.addAndGet(Duration.ofMillis(1500).toNanos());
        limiter.tryAcquire("new");
        assertThat(limiter.keys()).isLessThanOrEqualTo(3);
        assertThat(limiter.tryAcquire("busy").remaining()).isZero();
    }

    /**
     * A client rotating header values (or spoofed addresses) uses each key once: its buckets owe one
     * token each. Forgetting the fullest buckets first keeps the clients that owe more.
     */
    @Test
    void keepsTheBucketsOfClientsThatUsedTheirBurstUnderAFloodOfKeysUsedOnce() {
        LocalRateLimiter limiter = limiter(oneAMinute(10), 1_000);
        for (int i = 0; i < 10; i++) {
            assertThat(limiter.tryAcquire("victim").allowed()).isTrue();
        }
        for (int i = 0; i < 100_000; i++) {
            limiter.tryAcquire("rotated-" + i);
            now.addAndGet(1_000);
        }

        assertThat(limiter.keys()).isLessThanOrEqualTo(1_001);
        assertThat(limiter.tryAcquire("victim").allowed()).isFalse();
    }

    @Test
    void handsOutExactlyTheBurstToManyThreadsAtOnce() throws Exception {
        LocalRateLimiter limiter = LocalRateLimiter.of(RateLimit.builder()
                .rate(1)
                .period(Duration.ofHours(1))
                .burst(10_000)
                .build());
        AtomicInteger allowed = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 5_000; i++) {
                    if (limiter.tryAcquire("shared").allowed()) {
                        allowed.incrementAndGet();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(allowed.get()).isEqualTo(10_000);
    }
}
