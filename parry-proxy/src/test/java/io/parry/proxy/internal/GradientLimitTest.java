package io.parry.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.proxy.AdaptiveConcurrencyOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class GradientLimitTest {
    private static final long WINDOW = Duration.ofMillis(100).toNanos();
    private static final long MS = 1_000_000;

    private final AdaptiveConcurrencyOptions options = AdaptiveConcurrencyOptions.builder()
            .initialLimit(20)
            .minLimit(4)
            .maxLimit(100)
            .build();
    private final GradientLimit limit = new GradientLimit(options, 0);
    private long now;

    @Test
    void shedsPastTheInitialLimitAndCountsEachShed() {
        for (int i = 0; i < 20; i++) {
            assertThat(limit.tryAcquire()).isTrue();
        }

        assertThat(limit.tryAcquire()).isFalse();
        assertThat(limit.tryAcquire()).isFalse();
        limit.release();
        assertThat(limit.tryAcquire()).isTrue();
        assertThat(limit.sheds()).isEqualTo(2);
        assertThat(limit.inFlight()).isEqualTo(20);
    }

    @Test
    void entersPastTheLimitForARequestTheUpstreamAlreadyHas() {
        for (int i = 0; i < 20; i++) {
            limit.tryAcquire();
        }

        limit.enter();

        assertThat(limit.inFlight()).isEqualTo(21);
        assertThat(limit.tryAcquire()).isFalse();
        limit.release();
        limit.release();
        assertThat(limit.tryAcquire()).isTrue();
        assertThat(limit.sheds()).isEqualTo(1);
    }

    @Test
    void growsWhileLatencyHoldsAndThePlacesAreUsed() {
        windows(10, 20, 10 * MS);

        assertThat(limit.limit()).isGreaterThan(25);
    }

    @Test
    void keepsTheLimitWhileFewerThanHalfThePlacesAreUsed() {
        windows(10, 9, 10 * MS);

        assertThat(limit.limit()).isEqualTo(20);
    }

    @Test
    void shrinksWhenLatencyRisesPastTheTolerance() {
        windows(10, 20, 10 * MS);
        int learned = limit.limit();

        windows(20, learned, 40 * MS);

        assertThat(limit.limit()).isLessThan(learned / 2).isGreaterThanOrEqualTo(4);
    }

    @Test
    void staysWithinTheToleranceWithoutShrinking() {
        windows(10, 20, 10 * MS);
        int learned = limit.limit();

        windows(3, learned, 11 * MS);

        assertThat(limit.limit()).isGreaterThan(learned);
    }

    @Test
    void keepsAnUpstreamOfferedMoreThanItServesWithinHalfAgainItsLatencyForTwentySecondsByDefault() {
        // An upstream serving 50 at once in 100 ms, whose line grows with what it is offered, offered
        // more than the limit: latency is 100 ms times the limit over 50 once the limit passes 50.
        GradientLimit defaults = new GradientLimit(AdaptiveConcurrencyOptions.ofDefault(), 0);
        for (int window = 0; window < 200; window++) {
            int held = 0;
            while (defaults.tryAcquire()) {
                held++;
            }
            now += WINDOW;
            long rtt = 100 * MS * Math.max(50, held) / 50;
            for (int i = 0; i < 10; i++) {
                defaults.sample(rtt, now);
            }
            for (int i = 0; i < held; i++) {
                defaults.release();
            }
        }

        // The goodput target is p99 within twice the unloaded; an average within 1.5 times leaves that
        // room (tolerance 1.5 let it reach 2 times here).
        assertThat(defaults.limit()).isBetween(50, 75);
    }

    @Test
    void backsOffAfterAWindowWithDrops() {
        now += WINDOW;
        for (int i = 0; i < 10; i++) {
            limit.drop(now);
        }

        assertThat(limit.limit()).isEqualTo(18);
    }

    @Test
    void neverGoesBelowTheMinimumOrAboveTheMaximum() {
        for (int i = 0; i < 100; i++) {
            now += WINDOW;
            for (int j = 0; j < 10; j++) {
                limit.drop(now);
            }
        }
        assertThat(limit.limit()).isEqualTo(4);

        windows(300, 100, 10 * MS);
        assertThat(limit.limit()).isEqualTo(100);
    }

    @Test
    void recoversWhenLatencyFallsBack() {
        windows(10, 20, 10 * MS);
        windows(30, 20, 50 * MS);
        int low = limit.limit();

        windows(30, 100, 10 * MS);

        assertThat(limit.limit()).isGreaterThan(low + 15);
    }

    @Test
    void waitsForTenOutcomesBeforeClosingAWindow() {
        now += 10 * WINDOW;
        for (int i = 0; i < 9; i++) {
            limit.drop(now);
        }
        assertThat(limit.limit()).isEqualTo(20);

        limit.drop(now);
        assertThat(limit.limit()).isEqualTo(18);
    }

    @Test
    void neverLetsMoreThanTheLimitInFromManyThreads() throws Exception {
        int threads = 8;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    if (limit.tryAcquire()) {
                        most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        inside.decrementAndGet();
                        limit.release();
                    }
                }
                done.countDown();
            });
            thread.start();
            started.add(thread);
        }
        done.await();

        assertThat(most.get()).isLessThanOrEqualTo(20);
        assertThat(limit.inFlight()).isZero();
    }

    /** Windows of ten samples each at {@code rtt}, with {@code busy} places held during each. */
    private void windows(int count, int busy, long rtt) {
        for (int w = 0; w < count; w++) {
            int held = 0;
            while (held < busy && limit.tryAcquire()) {
                held++;
            }
            now += WINDOW;
            for (int i = 0; i < 10; i++) {
                limit.sample(rtt, now);
            }
            for (int i = 0; i < held; i++) {
                limit.release();
            }
        }
    }
}
