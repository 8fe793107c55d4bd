package io.parry.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.parry.client.Endpoint;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpResponse;
import io.parry.proxy.AdaptiveConcurrencyOptions;
import io.parry.proxy.BreakerOptions;
import io.parry.proxy.GuardedUpstream;
import io.parry.proxy.ProxyHandler;
import io.parry.proxy.RetryPolicy;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import io.parry.testing.Fault;
import io.parry.testing.FaultyUpstream;
import io.parry.testing.RawConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProxyMetricsTest {
    private static final RetryPolicy QUICK = RetryPolicy.builder()
            .backoff(Duration.ofMillis(1))
            .maxBackoff(Duration.ofMillis(5))
            .build();

    @RegisterExtension
    static final FaultyUpstream upstream = FaultyUpstream.start();

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ProxyMetrics metrics = ProxyMetrics.of(registry);
    private final EndedRequests ended = new EndedRequests();
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Endpoint endpoint = Endpoint.parse(upstream.endpointAddress());
    private final String authority = endpoint.authority();
    private GuardedUpstream api;
    private Server gateway;

    @AfterEach
    void stop() {
        gateway.stop(Duration.ofSeconds(2));
        api.close();
    }

    @Test
    void timesAttemptsAndCountsRetriesPerUpstreamAndEndpoint() throws Exception {
        start(GuardedUpstream.builder(Upstream.of("api", endpoint)), QUICK);
        upstream.faultFirst(1, Fault.status(503));

        assertThat(get("/api/items").statusCode()).isEqualTo(200);
        ended.await(1);

        assertThat(registry.get("parry.proxy.requests")
                        .tags("upstream", "api", "endpoint", authority, "status", "5xx")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.proxy.requests")
                        .tags("upstream", "api", "endpoint", authority, "status", "2xx")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.proxy.retries")
                        .tags("upstream", "api", "endpoint", authority, "reason", "503")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void countsBreakerTransitionsAndRequestsRefusedWithoutAnEndpoint() throws Exception {
        BreakerOptions breaker = BreakerOptions.builder()
                .slidingWindowSize(2)
                .minimumCalls(2)
                .failureRateThreshold(50)
                .openDuration(Duration.ofMinutes(1))
                .build();
        start(GuardedUpstream.builder(Upstream.of("api", endpoint)).breaker(breaker), RetryPolicy.none());
        upstream.fault(Fault.status(503));

        get("/api/a");
        get("/api/b");
        assertThat(get("/api/c").statusCode()).as("every breaker open").isEqualTo(503);
        ended.await(3);

        assertThat(registry.get("parry.proxy.breaker.transitions")
                        .tags("upstream", "api", "endpoint", authority, "from", "closed", "to", "open")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.proxy.breaker.state")
                        .tags("endpoint", authority, "state", "open")
                        .gauge()
                        .value())
                .isEqualTo(1);
        assertThat(registry.get("parry.proxy.breaker.state")
                        .tags("endpoint", authority, "state", "closed")
                        .gauge()
                        .value())
                .isZero();
        assertThat(registry.get("parry.proxy.rejections")
                        .tags("upstream", "api", "reason", "NO_ENDPOINT")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void countsClientEndingsApartFromTheUpstreamsFailures() throws Exception {
        start(GuardedUpstream.builder(Upstream.of("api", endpoint)), QUICK);
        assertThat(get("/api/warm").statusCode()).isEqualTo(200);

        for (int i = 0; i < 3; i++) {
            try (RawConnection connection = RawConnection.open("127.0.0.1", gateway.port())) {
                connection.send("POST /api/upload HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n5\nhello\nzz\n");
                assertThat(connection.readResponse().status()).isEqualTo(400);
            }
        }
        ended.await(4);

        // The server answers the broken body itself; the proxy hears of it when its call reads the body.
        Eventually.until(
                "three client endings",
                () -> registry
                                .find("parry.proxy.client.endings")
                                .tags("upstream", "api", "cause", "MALFORMED_BODY")
                                .counters()
                                .stream()
                                .mapToDouble(Counter::count)
                                .sum()
                        == 3);
        assertThat(registry.find("parry.proxy.requests").timers())
                .allSatisfy(timer -> assertThat(timer.getId().getTag("status")).isEqualTo("2xx"));
        assertThat(registry.find("parry.proxy.breaker.transitions").counters()).isEmpty();
    }

    @Test
    void countsWebSocketSessionsPerUpstreamAndRoute() throws Exception {
        start(GuardedUpstream.builder(Upstream.of("chat", endpoint)), QUICK);

        metrics.webSocketOpened("chat", endpoint, "rooms");
        metrics.webSocketOpened("chat", endpoint, "rooms");
        metrics.webSocketClosed("chat", endpoint, "rooms");

        assertThat(registry.get("parry.proxy.websocket.opened")
                        .tags("upstream", "chat", "route", "rooms")
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get("parry.proxy.websocket.closed")
                        .tags("upstream", "chat", "route", "rooms")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void countsBulkheadRejections() throws Exception {
        start(GuardedUpstream.builder(Upstream.of("api", endpoint)).maxConcurrent(1), QUICK);
        upstream.faultFirst(1, Fault.slowFirstByte(Duration.ofMillis(300)));

        CompletableFuture<java.net.http.HttpResponse<String>> first =
                client.sendAsync(HttpRequest.newBuilder(uri("/api/slow")).build(), BodyHandlers.ofString());
        upstream.awaitRequests(1, Duration.ofSeconds(5));
        assertThat(registry.get("parry.proxy.inflight").gauge().value()).isEqualTo(1);
        assertThat(get("/api/refused").statusCode()).isEqualTo(503);

        assertThat(first.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(registry.get("parry.proxy.bulkhead.rejections")
                        .tag("upstream", "api")
                        .functionCounter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.proxy.rejections")
                        .tags("upstream", "api", "reason", "BULKHEAD_FULL")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void showsTheAdaptiveLimitAndCountsItsSheds() throws Exception {
        AdaptiveConcurrencyOptions adaptive =
                AdaptiveConcurrencyOptions.builder().initialLimit(1).minLimit(1).build();
        start(GuardedUpstream.builder(Upstream.of("api", endpoint)).adaptiveConcurrency(adaptive), QUICK);
        upstream.faultFirst(1, Fault.slowFirstByte(Duration.ofMillis(300)));

        CompletableFuture<java.net.http.HttpResponse<String>> first =
                client.sendAsync(HttpRequest.newBuilder(uri("/api/slow")).build(), BodyHandlers.ofString());
        upstream.awaitRequests(1, Duration.ofSeconds(5));
        assertThat(registry.get("parry.proxy.adaptive.limit").gauge().value()).isEqualTo(1);
        assertThat(get("/api/shed").statusCode()).isEqualTo(503);

        assertThat(first.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(registry.get("parry.proxy.adaptive.sheds")
                        .tag("upstream", "api")
                        .functionCounter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.proxy.rejections")
                        .tags("upstream", "api", "reason", "ADAPTIVE_LIMIT")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void recordsTheAddedLatencyPerRouteWithoutTheUpstreamsTime() throws Exception {
        start(GuardedUpstream.builder(Upstream.of("api", endpoint)), QUICK);
        upstream.fault(Fault.slowFirstByte(Duration.ofMillis(200)));

        assertThat(get("/api/items").statusCode()).isEqualTo(200);
        assertThat(get("/local").statusCode()).isEqualTo(200);
        ended.await(2);

        Timer added = registry.get("parry.proxy.added.latency")
                .tag("route", "/api/**")
                .timer();
        assertThat(added.count()).isEqualTo(1);
        assertThat(added.totalTime(TimeUnit.MILLISECONDS))
                .as("the upstream's 200 ms are not the gateway's")
                .isLessThan(200);
        assertThat(registry.scrape())
                .as("a histogram with a bucket at the 50 ms budget")
                .contains("parry_proxy_added_latency_seconds_bucket{route=\"/api/**\",le=\"0.05\"} 1");
        assertThat(registry.find("parry.proxy.added.latency")
                        .tag("route", "/local")
                        .timer())
                .as("no upstream, no added latency")
                .isNull();
    }

    @Test
    void gaugesTheHealthOfBoundEndpointsUntilUnbound() throws Exception {
        start(GuardedUpstream.builder(Upstream.of("api", endpoint)), QUICK);
        get("/api/items");

        assertThat(registry.get("parry.proxy.endpoint.healthy")
                        .tags("upstream", "api", "endpoint", authority)
                        .gauge()
                        .value())
                .isEqualTo(1);
        assertThat(registry.get("parry.proxy.breaker.state")
                        .tags("endpoint", authority, "state", "closed")
                        .gauge()
                        .value())
                .isEqualTo(1);
        Eventually.until(
                "the call finished",
                () -> registry.get("parry.proxy.endpoint.inflight").gauge().value() == 0);
        Eventually.until(
                "the connection back in the pool",
                () -> registry.get("parry.proxy.pool.idle")
                                .tags("upstream", "api", "endpoint", authority)
                                .gauge()
                                .value()
                        == 1);

        metrics.unbind(api);

        assertThat(registry.find("parry.proxy.endpoint.healthy").gauges()).isEmpty();
        assertThat(registry.find("parry.proxy.pool.idle").gauges()).isEmpty();
    }

    private void start(GuardedUpstream.Builder group, RetryPolicy retry) {
        api = group.observer(metrics).build();
        metrics.bind(api);
        Router router = Router.builder()
                .mount("/api", ProxyHandler.builder(api).retry(retry).build())
                .get("/local", (ctx, request) -> HttpResponse.ofText("local").toStage())
                .build();
        gateway = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(router)
                .listener(metrics)
                .listener(ended)
                .build()
                .start();
    }

    private java.net.http.HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).build(), BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + gateway.port() + path);
    }
}
