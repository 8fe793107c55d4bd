package io.parry.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Each meter is registered once, also when the first requests arrive on several event loops at once. */
class ServerMetricsRegistrationTest {
    private static final String ACTIVE = "parry.server.requests.active";

    private final AtomicInteger activeRegistrations = new AtomicInteger();
    private final CountDownLatch secondRegistrationOrRequest = new CountDownLatch(1);

    @Test
    void registersTheActiveRequestsGaugeOnceWhenTwoEventLoopsSendTheFirstRequestsTogether() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registry.config().meterFilter(new HoldingFirstRegistration());
        ServerMetrics metrics = ServerMetrics.of(registry);
        Handler handler = (ctx, request) -> {
            secondRegistrationOrRequest.countDown();
            return HttpResponse.ofText("ok").toStage();
        };
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Void>> loops = new ArrayList<>();
        // Two threads of its own: the common pool has one worker on a 2-core machine, which would run the
        // second request only after the first gave up waiting for it.
        ExecutorService twoLoops = Executors.newFixedThreadPool(2);
        for (int i = 0; i < 2; i++) {
            loops.add(CompletableFuture.runAsync(
                    () -> {
                        try {
                            go.await();
                            metrics.filter(handler, null, HttpRequest.of(HttpMethod.GET, "/"))
                                    .toCompletableFuture()
                                    .join();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    },
                    twoLoops));
        }

        go.countDown();
        try {
            CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        } finally {
            twoLoops.shutdownNow();
        }

        assertThat(activeRegistrations).hasValue(1);
        assertThat(registry.get(ACTIVE).gauge().value()).isZero();
    }

    /**
     * Holds the first registration of the gauge until a second one begins or the other thread's request
     * reaches the handler, so that both threads pass the registration check while the first registers.
     */
    private final class HoldingFirstRegistration implements MeterFilter {
        @Override
        public Meter.Id map(Meter.Id id) {
            if (id.getName().equals(ACTIVE)) {
                if (activeRegistrations.incrementAndGet() > 1) {
                    secondRegistrationOrRequest.countDown();
                } else {
                    await();
                }
            }
            return id;
        }

        private void await() {
            try {
                secondRegistrationOrRequest.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
