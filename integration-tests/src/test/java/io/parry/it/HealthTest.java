package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.server.Server;
import io.parry.server.health.Health;
import io.parry.server.health.HealthStatus;
import io.parry.server.routing.Router;
import io.parry.testing.RawConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class HealthTest {
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void answersLivenessAndReadinessOverHttp() throws Exception {
        AtomicBoolean databaseUp = new AtomicBoolean(true);
        Health health = Health.builder()
                .liveness("loops", () -> CompletableFuture.completedFuture(HealthStatus.up()), Duration.ofSeconds(1))
                .readiness(
                        "db",
                        () -> CompletableFuture.completedFuture(
                                databaseUp.get() ? HealthStatus.up() : HealthStatus.down("connection refused")),
                        Duration.ofSeconds(1))
                .build();
        try (Server admin = adminServer(health)) {
            assertThat(get(admin, "/health/live").statusCode()).isEqualTo(200);
            java.net.http.HttpResponse<String> ready = get(admin, "/health/ready");
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.headers().firstValue("content-type")).contains("application/json");
            assertThat(ready.body())
                    .matches("\\{\"status\":\"UP\",\"checks\":\\{\"db\":\\{\"status\":\"UP\","
                            + "\"durationMs\":\\d+\\.\\d{3}}}}");

            databaseUp.set(false);

            java.net.http.HttpResponse<String> notReady = get(admin, "/health/ready");
            assertThat(notReady.statusCode()).isEqualTo(503);
            assertThat(notReady.body()).contains("\"detail\":\"connection refused\"");
            assertThat(get(admin, "/health/live").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void answersNotReadyWhileTheServerDrains() throws Exception {
        CompletableFuture<HttpResponse> held = new CompletableFuture<>();
        CompletableFuture<Void> entered = new CompletableFuture<>();
        Server app = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler((ctx, request) -> {
                    entered.complete(null);
                    return held;
                })
                .build()
                .start();
        Health health = Health.builder().readinessOf(app).build();
        try (Server admin = adminServer(health);
                RawConnection inFlight = RawConnection.open("127.0.0.1", app.port())) {
            assertThat(get(admin, "/health/ready").statusCode()).isEqualTo(200);
            inFlight.send("GET /slow HTTP/1.1\nHost: a\n\n");
            entered.get(5, TimeUnit.SECONDS);

            CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> app.stop(Duration.ofSeconds(5)));
            awaitDraining(app);

            java.net.http.HttpResponse<String> draining = get(admin, "/health/ready");
            assertThat(draining.statusCode()).isEqualTo(503);
            assertThat(draining.body()).contains("\"server\":{\"status\":\"DOWN\",\"detail\":\"draining\"");

            held.complete(HttpResponse.ofText("done"));
            assertThat(inFlight.readResponse().status()).isEqualTo(200);
            stopped.get(10, TimeUnit.SECONDS);
        }
    }

    private static Server adminServer(Health health) {
        Router router = Router.builder()
                .get("/health/live", health.livenessHandler())
                .get("/health/ready", health.readinessHandler())
                .build();
        return Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(router)
                .build()
                .start();
    }

    /** Draining starts on the thread that calls stop, a moment after it was called. */
    private static void awaitDraining(Server server) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!server.isDraining() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(server.isDraining()).isTrue();
    }

    private java.net.http.HttpResponse<String> get(Server server, String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .build(),
                BodyHandlers.ofString());
    }
}
