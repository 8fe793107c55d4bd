package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.server.health.HealthCheck;
import io.parry.server.health.HealthStatus;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Liveness and readiness on the admin listener, with checks an embedder adds. */
class AdminHealthTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIG =
            """
            listener: { host: 127.0.0.1, port: 0 }
            admin: { host: 127.0.0.1, port: 0 }
            routes:
              - { match: { path: /hello }, respond: { body: hi } }
            """;

    @TempDir
    Path dir;

    @Test
    void aReadinessCheckThatIsDownMakesReady503WithItsDetail() throws Exception {
        AtomicReference<HealthStatus> cache = new AtomicReference<>(HealthStatus.down("connection refused"));
        try (TestGateway gateway =
                start(builder -> builder.readinessCheck("cache", () -> now(cache.get()), Duration.ofSeconds(1)))) {
            HttpResponse<String> down = gateway.admin("/admin/ready");

            assertThat(down.statusCode()).isEqualTo(503);
            JsonNode report = JSON.readTree(down.body());
            assertThat(report.get("status").asText()).isEqualTo("DOWN");
            assertThat(report.at("/checks/cache/status").asText()).isEqualTo("DOWN");
            assertThat(report.at("/checks/cache/detail").asText()).isEqualTo("connection refused");
            assertThat(report.at("/checks/server/status").asText()).isEqualTo("UP");
            assertThat(gateway.admin("/admin/health").statusCode()).isEqualTo(200);

            cache.set(HealthStatus.up());

            assertThat(gateway.admin("/admin/ready").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aReadinessCheckThatTakesTooLongIsDown() throws Exception {
        try (TestGateway gateway =
                start(builder -> builder.readinessCheck("slow", CompletableFuture::new, Duration.ofMillis(50)))) {
            HttpResponse<String> response = gateway.admin("/admin/ready");

            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(JSON.readTree(response.body()).at("/checks/slow/detail").asText())
                    .isEqualTo("timed out after 50 ms");
        }
    }

    @Test
    void aLivenessCheckThatFailsMakesHealth503() throws Exception {
        HealthCheck broken = () -> CompletableFuture.failedFuture(new IllegalStateException("event loop stuck"));
        try (TestGateway gateway = start(builder -> builder.livenessCheck("loops", broken, Duration.ofSeconds(1)))) {
            HttpResponse<String> response = gateway.admin("/admin/health");

            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(JSON.readTree(response.body()).at("/checks/loops/detail").asText())
                    .isEqualTo("java.lang.IllegalStateException: event loop stuck");
            assertThat(gateway.admin("/admin/ready").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void refusesACheckNamedLikeOneOfTheGatewaysOwn() {
        Gateway.Builder builder = Gateway.builder(dir.resolve("gateway.yaml"));

        assertThatThrownBy(() -> builder.readinessCheck("config", () -> now(HealthStatus.up()), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("name: config (expected: a name not used yet)");
        assertThatThrownBy(() -> builder.readinessCheck("db", () -> now(HealthStatus.up()), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout: PT0S (expected: > 0)");
    }

    private TestGateway start(Consumer<Gateway.Builder> checks) {
        return TestGateway.start(dir, CONFIG, Map.of(), checks);
    }

    private static CompletableFuture<HealthStatus> now(HealthStatus status) {
        return CompletableFuture.completedFuture(status);
    }
}
