package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientTimeouts;
import io.parry.client.Endpoint;
import io.parry.client.upstream.HealthCheck;
import io.parry.client.upstream.Upstream;
import io.parry.testing.Fault;
import io.parry.testing.FaultyUpstream;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProxyFailuresTest {
    @RegisterExtension
    static final FaultyUpstream upstream = FaultyUpstream.start();

    private static final SwappableHandler handler = new SwappableHandler();

    @RegisterExtension
    static final ServerExtension gateway = ServerExtension.of(handler);

    private GuardedUpstream group;

    @AfterEach
    void returnsEveryConnectionAndPlace() {
        Endpoint endpoint = Endpoint.of("127.0.0.1", upstream.port());
        awaitTrue(() -> group.client().poolStats(endpoint).active() == 0);
        assertThat(group.client().poolStats(endpoint).pending()).isZero();
        awaitTrue(() -> group.inFlight() == 0);
        group.close();
    }

    @Test
    void answers503WhenTheUpstreamRefusesConnections() throws Exception {
        proxyTo(Upstream.of("gone", Endpoint.of("127.0.0.1", FaultyUpstream.refusedPort())), RetryPolicy.ofDefault());

        HttpResponse<String> response = get("/x");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("gone").doesNotContain("127.0.0.1");
    }

    @Test
    void answers504WhenTheUpstreamIsSlowToAnswer() throws Exception {
        upstream.fault(Fault.slowFirstByte(Duration.ofSeconds(3)));
        proxyTo(
                upstreamGroup(),
                RetryPolicy.ofDefault(),
                ClientTimeouts.builder().responseHeaders(Duration.ofMillis(200)).build());

        HttpResponse<String> response = get("/slow");

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(upstream.requests()).isEqualTo(1);
    }

    @Test
    void answers502ForAGarbageResponse() throws Exception {
        upstream.fault(Fault.garbage());
        proxyTo(upstreamGroup(), RetryPolicy.ofDefault());

        assertThat(get("/garbage").statusCode()).isEqualTo(502);
    }

    @Test
    void answers502WhenAPostIsDroppedWithoutAnswer() throws Exception {
        upstream.fault(Fault.closeBeforeResponse());
        proxyTo(upstreamGroup(), RetryPolicy.ofDefault());

        HttpResponse<String> response = gateway.client()
                .send(
                        HttpRequest.newBuilder(gateway.uri("/post"))
                                .POST(BodyPublishers.ofString("data"))
                                .build(),
                        BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(upstream.requests()).isEqualTo(1);
    }

    @Test
    void closesTheClientConnectionWhenTheUpstreamDiesMidBody() {
        upstream.respond(200, "x".repeat(64 * 1024));
        upstream.fault(Fault.resetMidBody());
        proxyTo(upstreamGroup(), RetryPolicy.ofDefault());

        try (RawConnection connection = gateway.connect()) {
            connection.send("GET /big HTTP/1.1\nHost: h\n\n");
            RawResponse head = connection.readResponseHead();
            String rest = connection.readUntilClose();

            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("content-length")).isEqualTo(String.valueOf(64 * 1024));
            assertThat(rest.length()).isLessThan(64 * 1024);
        }
    }

    @Test
    void neverUsesAPooledConnectionTheUpstreamClosed() throws Exception {
        upstream.fault(Fault.closeAfterResponse());
        proxyTo(upstreamGroup(), RetryPolicy.none());

        for (int i = 0; i < 5; i++) {
            HttpResponse<String> response = get("/again");
            assertThat(response.statusCode()).isEqualTo(200);
            upstream.awaitOpenConnections(0, Duration.ofSeconds(5));
        }
        assertThat(upstream.acceptedConnections()).isEqualTo(5);
    }

    @Test
    void cancelsTheUpstreamCallWhenTheClientGoesAway() {
        upstream.fault(Fault.slowFirstByte(Duration.ofSeconds(3)));
        group = GuardedUpstream.builder(upstreamGroup()).maxConcurrent(10).build();
        handler.set(ProxyHandler.to(group));
        Endpoint endpoint = Endpoint.of("127.0.0.1", upstream.port());

        try (RawConnection connection = gateway.connect()) {
            connection.send("GET /abandoned HTTP/1.1\nHost: h\n\n");
            upstream.awaitRequests(1, Duration.ofSeconds(5));
            assertThat(group.inFlight()).isEqualTo(1);
            assertThat(group.client().poolStats(endpoint).active()).isEqualTo(1);
        }

        awaitTrue(() -> group.inFlight() == 0);
        awaitTrue(() -> group.client().poolStats(endpoint).active() == 0);
        upstream.awaitOpenConnections(0, Duration.ofSeconds(5));
    }

    @Test
    void keepsTheUpstreamConnectionWhenTheAbandonedResponseComesSoon() throws Exception {
        upstream.fault(Fault.slowFirstByte(Duration.ofMillis(300)));
        group = GuardedUpstream.builder(upstreamGroup()).maxConcurrent(10).build();
        handler.set(ProxyHandler.to(group));
        Endpoint endpoint = Endpoint.of("127.0.0.1", upstream.port());

        try (RawConnection connection = gateway.connect()) {
            connection.send("GET /abandoned HTTP/1.1\nHost: h\n\n");
            upstream.awaitRequests(1, Duration.ofSeconds(5));
        }

        awaitTrue(() -> group.inFlight() == 0);
        // Drained, then pooled: the upstream's connection stays open for the next call from that loop.
        awaitTrue(() -> group.client().poolStats(endpoint).idle() == 1);
        upstream.awaitOpenConnections(1, Duration.ofSeconds(5));
        assertThat(upstream.acceptedConnections()).isEqualTo(1);
    }

    @Test
    void answers503AtOnceWhenTheBulkheadIsFull() throws Exception {
        upstream.fault(Fault.slowFirstByte(Duration.ofMillis(500)));
        group = GuardedUpstream.builder(upstreamGroup()).maxConcurrent(1).build();
        handler.set(ProxyHandler.builder(group).build());

        CompletableFuture<HttpResponse<String>> first = gateway.client()
                .sendAsync(HttpRequest.newBuilder(gateway.uri("/first")).build(), BodyHandlers.ofString());
        upstream.awaitRequests(1, Duration.ofSeconds(5));
        HttpResponse<String> second = get("/second");

        assertThat(second.statusCode()).isEqualTo(503);
        assertThat(second.body()).contains("too many requests");
        assertThat(first.get().statusCode()).isEqualTo(200);
        assertThat(upstream.requests()).isEqualTo(1);
        assertThat(group.bulkheadRejections()).isEqualTo(1);
    }

    @Test
    void answers503WhenNoEndpointIsHealthy() throws Exception {
        upstream.fault(Fault.status(503));
        Upstream checked = Upstream.builder("checked")
                .endpoint(Endpoint.of("127.0.0.1", upstream.port()))
                .healthCheck(HealthCheck.builder("/health")
                        .interval(Duration.ofMillis(20))
                        .unhealthyThreshold(1)
                        .build())
                .build();
        proxyTo(checked, RetryPolicy.ofDefault());
        awaitTrue(() -> !checked.hasHealthyEndpoint());
        int checks = upstream.requests();

        HttpResponse<String> response = get("/unhealthy");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.body()).contains("no healthy endpoint");
        assertThat(upstream.lastRequestHead()).startsWith("GET /health ");
        assertThat(upstream.requests()).isGreaterThanOrEqualTo(checks);
    }

    @Test
    void picksTheUpstreamPerRequestAndAnswers503WhenNoneServesIt() throws Exception {
        group = GuardedUpstream.of(upstreamGroup());
        try (GuardedUpstream gone =
                GuardedUpstream.of(Upstream.of("gone", Endpoint.of("127.0.0.1", FaultyUpstream.refusedPort())))) {
            handler.set(ProxyHandler.builder(request -> request.path().startsWith("/faulty")
                            ? group
                            : request.path().startsWith("/gone") ? gone : null)
                    .build());

            HttpResponse<String> served = get("/faulty/x");
            HttpResponse<String> refused = get("/gone/x");
            HttpResponse<String> unserved = get("/elsewhere");

            assertThat(served.statusCode()).isEqualTo(200);
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).contains("gone");
            assertThat(unserved.statusCode()).isEqualTo(503);
            assertThat(unserved.headers().firstValue("content-type")).hasValue("application/problem+json");
            assertThat(unserved.body()).contains("No upstream serves this request.");
            assertThat(upstream.requests()).isEqualTo(1);
        }
    }

    private Upstream upstreamGroup() {
        return Upstream.of("faulty", Endpoint.of("127.0.0.1", upstream.port()));
    }

    private void proxyTo(Upstream target, RetryPolicy retry) {
        group = GuardedUpstream.of(target);
        handler.set(ProxyHandler.builder(group).retry(retry).build());
    }

    private void proxyTo(Upstream target, RetryPolicy retry, ClientTimeouts timeouts) {
        group = GuardedUpstream.of(target);
        handler.set(ProxyHandler.builder(group).retry(retry).timeouts(timeouts).build());
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return gateway.client().send(HttpRequest.newBuilder(gateway.uri(path)).build(), BodyHandlers.ofString());
    }

    static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 5 s");
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
