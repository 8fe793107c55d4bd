package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.core.EventProcessor;
import io.parry.client.Endpoint;
import io.parry.client.upstream.Upstream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EndpointBreakerTest {
    private static final RuntimeException FAILURE = new IllegalStateException("refused");

    private final Endpoint endpoint = Endpoint.parse("127.0.0.1:9");
    private final List<String> told = new CopyOnWriteArrayList<>();
    private final GuardedUpstream group = GuardedUpstream.builder(Upstream.of("api", endpoint))
            .observer(new ProxyObserver() {
                @Override
                public void breakerTransition(String upstream, Endpoint at, BreakerState from, BreakerState to) {
                    told.add(upstream + " " + at.authority() + " " + from + ">" + to);
                }
            })
            .breaker(BreakerOptions.builder()
                    .slidingWindowSize(2)
                    .minimumCalls(2)
                    .failureRateThreshold(50)
                    .openDuration(Duration.ofMillis(1))
                    .halfOpenCalls(1)
                    .build())
            .build();

    @AfterEach
    void close() {
        group.close();
    }

    @Test
    void registersNoResilience4jEventConsumerForAnObserver() {
        // With one, Resilience4j builds an event with ZonedDateTime.now() for every success it records.
        assertThat(((EventProcessor<?>) group.breaker(endpoint).getEventPublisher()).hasConsumers())
                .isFalse();
    }

    @Test
    void tellsTheObserverEachTransitionItsCallsMake() {
        EndpointBreaker breaker = group.endpointBreaker(endpoint);
        for (int i = 0; i < 2; i++) {
            assertThat(breaker.tryAcquirePermission()).isTrue();
            breaker.onError(1_000, FAILURE);
        }
        assertThat(told).containsExactly("api 127.0.0.1:9 CLOSED>OPEN");

        awaitPermission(breaker);
        assertThat(told).containsExactly("api 127.0.0.1:9 CLOSED>OPEN", "api 127.0.0.1:9 OPEN>HALF_OPEN");

        breaker.onSuccess(1_000);
        assertThat(told)
                .containsExactly(
                        "api 127.0.0.1:9 CLOSED>OPEN",
                        "api 127.0.0.1:9 OPEN>HALF_OPEN",
                        "api 127.0.0.1:9 HALF_OPEN>CLOSED");
    }

    @Test
    void tellsNothingWhileTheStateStaysTheSame() {
        EndpointBreaker breaker = group.endpointBreaker(endpoint);
        for (int i = 0; i < 100; i++) {
            assertThat(breaker.tryAcquirePermission()).isTrue();
            breaker.onSuccess(1_000);
        }
        assertThat(breaker.tryAcquirePermission()).isTrue();
        breaker.releasePermission();

        assertThat(told).isEmpty();
    }

    /** The breaker stays open for a millisecond: the first call after it finds it half-open. */
    private static void awaitPermission(EndpointBreaker breaker) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!breaker.tryAcquirePermission()) {
            assertThat(System.nanoTime()).as("still open after 5 s").isLessThan(deadline);
        }
    }
}
