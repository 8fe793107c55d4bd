package io.parry.client.upstream;

import static io.parry.client.upstream.OutlierEjectionTest.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.PoolStats;
import io.parry.http.HttpData;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.testing.ServerExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Health checks of a real Parry server, sent with Parry's client. */
class HealthCheckServerTest {
    private static final AtomicBoolean up = new AtomicBoolean(true);
    private static final Queue<String> checks = new ConcurrentLinkedQueue<>();

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of((ctx, request) -> {
        checks.add(request.method() + " " + request.target() + " "
                + request.headers().get("user-agent"));
        HttpStatus status = up.get() ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE;
        return HttpResponse.of(status, MediaType.PLAIN_TEXT_UTF_8, HttpData.ofUtf8(up.get() ? "up" : "down"))
                .toStage();
    });

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final HttpClient client = HttpClient.ofDefault();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
        client.close();
        up.set(true);
        checks.clear();
    }

    @Test
    void followsTheServerFromHealthyToUnhealthyAndBack() {
        Endpoint endpoint = Endpoint.of("127.0.0.1", server.port());
        Upstream upstream = Upstream.builder("server")
                .endpoint(endpoint)
                .healthCheck(HealthCheck.builder("/health")
                        .interval(Duration.ofMillis(20))
                        .unhealthyThreshold(3)
                        .healthyThreshold(2)
                        .build())
                .build();
        upstream.startHealthChecks(client, scheduler);
        Await.until("a first check", () -> !checks.isEmpty());
        assertThat(checks.peek()).isEqualTo("GET /health parry-health-check");

        up.set(false);
        Await.until("the endpoint fails its check", () -> !status(upstream, endpoint)
                .healthCheckPassing());
        assertThat(upstream.select(e -> true)).isEmpty();
        assertThat(upstream.hasHealthyEndpoint()).isFalse();

        up.set(true);
        Await.until("the endpoint passes again", upstream::hasHealthyEndpoint);
        assertThat(upstream.select(e -> true)).contains(endpoint);
        upstream.close();
    }

    @Test
    void failsAnEndpointNobodyListensOn() throws IOException {
        Endpoint serving = Endpoint.of("127.0.0.1", server.port());
        Endpoint closed = Endpoint.of("127.0.0.1", closedPort());
        Upstream upstream = Upstream.builder("partly")
                .endpoints(List.of(serving, closed))
                .healthCheck(HealthCheck.builder("/health")
                        .interval(Duration.ofMillis(20))
                        .unhealthyThreshold(2)
                        .build())
                .build();
        upstream.startHealthChecks(client, scheduler);

        Await.until("the closed endpoint fails its check", () -> !status(upstream, closed)
                .healthCheckPassing());

        assertThat(status(upstream, serving).healthCheckPassing()).isTrue();
        assertThat(upstream.select(e -> true)).contains(serving);
        upstream.close();
    }

    @Test
    void returnsEachCheckConnectionToThePool() {
        Endpoint endpoint = Endpoint.of("127.0.0.1", server.port());
        Upstream upstream = Upstream.builder("pooled")
                .endpoint(endpoint)
                .healthCheck(HealthCheck.builder("/health")
                        .interval(Duration.ofMillis(5))
                        .build())
                .build();
        upstream.startHealthChecks(client, scheduler);

        Await.until("ten checks", () -> checks.size() >= 10);

        // Checks never overlap, so at most one holds a connection; an unread body would hold one each.
        PoolStats pool = client.poolStats(endpoint);
        assertThat(pool.active()).isLessThanOrEqualTo(1);
        assertThat(pool.active() + pool.idle()).isLessThan(10);
        upstream.close();
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
