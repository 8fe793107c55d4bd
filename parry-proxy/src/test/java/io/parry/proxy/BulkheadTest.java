package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.upstream.Upstream;
import io.parry.server.Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A group's bulkhead counts what the upstream owes an answer to: clients sending their bodies slowly
 * hold no place in it, so they cannot make the group answer 503 to everyone.
 */
class BulkheadTest {
    private CapacityUpstream upstream;
    private GuardedUpstream group;
    private Server gateway;
    /** Runs the slow uploaders and the users. */
    private final ExecutorService threads = Executors.newCachedThreadPool();
    /** The users' client. */
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @AfterEach
    void stop() {
        threads.shutdownNow();
        if (gateway != null) {
            gateway.stop(Duration.ofSeconds(2));
        }
        if (group != null) {
            group.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void keepsServingOthersWhileTwiceMaxConcurrentClientsSendTheirBodiesSlowly() throws Exception {
        start(4);
        AtomicInteger uploaded = new AtomicInteger();
        List<Future<?>> senders = SlowUpload.streamedThenWhole(threads, gateway.port(), upstream, 4, uploaded);

        AtomicInteger served = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        load(2, Duration.ofSeconds(2), served, refused);
        for (Future<?> sender : senders) {
            sender.get(20, TimeUnit.SECONDS);
        }

        assertThat(served.get()).isPositive();
        assertThat(refused.get()).isZero();
        assertThat(group.bulkheadRejections()).isZero();
        assertThat(uploaded.get()).isGreaterThanOrEqualTo(7);
    }

    @Test
    void countsAPlaceTakenBackBeyondTheBulkheadUntilItIsGivenBack() {
        group = GuardedUpstream.builder(Upstream.of("full", Endpoint.parse("127.0.0.1:9")))
                .maxConcurrent(1)
                .build();
        assertThat(group.tryEnter()).isTrue();

        group.reenter();

        assertThat(group.inFlight()).isEqualTo(2);
        group.exit();
        assertThat(group.inFlight()).isEqualTo(1);
        assertThat(group.tryEnter()).isFalse();
        group.exit();
        assertThat(group.inFlight()).isZero();
        assertThat(group.tryEnter()).isTrue();
    }

    private void start(int maxConcurrent) {
        upstream = CapacityUpstream.start(100, Duration.ofMillis(20));
        group = GuardedUpstream.builder(Upstream.of("capacity", Endpoint.parse("127.0.0.1:" + upstream.port())))
                .breaker(BreakerOptions.disabled())
                .maxConcurrent(maxConcurrent)
                .build();
        gateway = Server.builder()
                .handler(ProxyHandler.builder(group)
                        .retry(RetryPolicy.ofDefault())
                        .build())
                .options(options -> options.host("127.0.0.1").port(0))
                .build()
                .start();
    }

    /** Clients in closed loops for a while, each sending its next request when its last is answered. */
    private void load(int clients, Duration duration, AtomicInteger served, AtomicInteger refused) throws Exception {
        long end = System.nanoTime() + duration.toNanos();
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            running.add(threads.submit(() -> {
                while (System.nanoTime() < end) {
                    HttpResponse<String> response = http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/work"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            BodyHandlers.ofString());
                    (response.statusCode() == 200 ? served : refused).incrementAndGet();
                }
                return null;
            }));
        }
        for (Future<?> client : running) {
            client.get(30, TimeUnit.SECONDS);
        }
    }
}
