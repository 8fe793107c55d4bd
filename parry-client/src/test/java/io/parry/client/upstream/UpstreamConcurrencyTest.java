package io.parry.client.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class UpstreamConcurrencyTest {
    private static final int THREADS = 8;
    private static final int CALLS_PER_THREAD = 30_000;

    @ParameterizedTest
    @EnumSource(Balancing.class)
    void keepsCountsConsistentUnderConcurrentCalls(Balancing balancing) throws Exception {
        List<Endpoint> endpoints = List.of(
                Endpoint.of("10.0.0.1", 80).withWeight(3), Endpoint.of("10.0.0.2", 80), Endpoint.of("10.0.0.3", 80));
        Upstream upstream = Upstream.builder("busy")
                .endpoints(endpoints)
                .balancing(balancing)
                .outlierDetection(OutlierDetection.disabled())
                .build();
        AtomicIntegerArray selected = new AtomicIntegerArray(endpoints.size());
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < CALLS_PER_THREAD; i++) {
                        Endpoint endpoint = upstream.select(e -> true).orElseThrow();
                        selected.incrementAndGet(endpoints.indexOf(endpoint));
                        upstream.callStarted(endpoint);
                        upstream.callFinished(
                                endpoint, ThreadLocalRandom.current().nextBoolean());
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            pool.shutdownNow();
        }

        int total = 0;
        for (int i = 0; i < selected.length(); i++) {
            assertThat(selected.get(i)).as("selections of %s", endpoints.get(i)).isPositive();
            total += selected.get(i);
        }
        assertThat(total).isEqualTo(THREADS * CALLS_PER_THREAD);
        assertThat(upstream.status()).extracting(EndpointStatus::inFlight).containsOnly(0);
        if (balancing == Balancing.ROUND_ROBIN) {
            assertThat(selected.get(0)).isEqualTo(THREADS * CALLS_PER_THREAD / 3);
        }
        if (balancing == Balancing.WEIGHTED_ROUND_ROBIN) {
            assertThat(selected.get(0)).isEqualTo(THREADS * CALLS_PER_THREAD * 3 / 5);
        }
    }

    @ParameterizedTest
    @EnumSource(Balancing.class)
    void ejectsWithinTheBudgetUnderConcurrentFailures(Balancing balancing) throws Exception {
        List<Endpoint> endpoints = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            endpoints.add(Endpoint.of("10.0.0." + i, 80));
        }
        Upstream upstream = Upstream.builder("failing")
                .endpoints(endpoints)
                .balancing(balancing)
                .outlierDetection(OutlierDetection.builder()
                        .consecutiveFailures(3)
                        .maxEjectionPercent(30)
                        .build())
                .build();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 5_000; i++) {
                        Endpoint endpoint = upstream.select(e -> true).orElseThrow();
                        upstream.callStarted(endpoint);
                        upstream.callFinished(endpoint, false);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(upstream.status().stream().filter(EndpointStatus::ejected).count())
                .isEqualTo(3);
        assertThat(upstream.status()).extracting(EndpointStatus::inFlight).containsOnly(0);
    }
}
