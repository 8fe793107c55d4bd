package io.parry.server.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpResponse;
import io.parry.server.StubContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HealthTest {
    private static final Duration SECOND = Duration.ofSeconds(1);

    @Test
    void isUpWhenEveryCheckIsUp() {
        Health health = Health.builder()
                .liveness("loops", () -> CompletableFuture.completedFuture(HealthStatus.up()), SECOND)
                .liveness("disk", () -> CompletableFuture.completedFuture(HealthStatus.up("80% free")), SECOND)
                .build();

        HealthReport report = health.liveness().toCompletableFuture().join();

        assertThat(report.isUp()).isTrue();
        assertThat(report.checks()).extracting(CheckResult::name).containsExactly("loops", "disk");
        assertThat(report.checks().get(1).status().detail()).contains("80% free");
    }

    @Test
    void isUpWithNoChecks() {
        assertThat(Health.builder()
                        .build()
                        .readiness()
                        .toCompletableFuture()
                        .join()
                        .isUp())
                .isTrue();
    }

    @Test
    void keepsLivenessAndReadinessApart() {
        Health health = Health.builder()
                .readiness("db", () -> CompletableFuture.completedFuture(HealthStatus.down("no db")), SECOND)
                .build();

        assertThat(health.liveness().toCompletableFuture().join().isUp()).isTrue();
        assertThat(health.readiness().toCompletableFuture().join().isUp()).isFalse();
    }

    @Test
    void countsAFailedCheckAsDownWithTheFailureAsDetail() {
        Health health = Health.builder()
                .readiness("failed", () -> CompletableFuture.failedFuture(new IllegalStateException("refused")), SECOND)
                .readiness(
                        "threw",
                        () -> {
                            throw new IllegalArgumentException("bug");
                        },
                        SECOND)
                .readiness("null", () -> null, SECOND)
                .build();

        HealthReport report = health.readiness().toCompletableFuture().join();

        assertThat(report.isUp()).isFalse();
        assertThat(report.checks())
                .extracting(check -> check.status().toString())
                .containsExactly(
                        "DOWN: java.lang.IllegalStateException: refused",
                        "DOWN: java.lang.IllegalArgumentException: bug",
                        "DOWN: the check returned no stage");
    }

    @Test
    void countsACheckThatTakesTooLongAsDown() {
        Health health = Health.builder()
                .readiness("slow", CompletableFuture::new, Duration.ofMillis(50))
                .build();

        CheckResult slow =
                health.readiness().toCompletableFuture().join().checks().get(0);

        assertThat(slow.status()).isEqualTo(HealthStatus.down("timed out after 50 ms"));
        assertThat(slow.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(50));
    }

    @Test
    void runsTheChecksInParallel() throws Exception {
        CountDownLatch bothStarted = new CountDownLatch(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            HealthCheck waitsForTheOther = HealthCheck.blocking(
                    () -> {
                        bothStarted.countDown();
                        return bothStarted.await(5, TimeUnit.SECONDS)
                                ? HealthStatus.up()
                                : HealthStatus.down("ran alone");
                    },
                    pool);
            Health health = Health.builder()
                    .readiness("a", waitsForTheOther, Duration.ofSeconds(10))
                    .readiness("b", waitsForTheOther, Duration.ofSeconds(10))
                    .build();

            assertThat(health.readiness()
                            .toCompletableFuture()
                            .get(10, TimeUnit.SECONDS)
                            .isUp())
                    .isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void runsABlockingProbeOnItsExecutorAndCountsAThrowAsDown() {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            HealthCheck check = HealthCheck.blocking(
                    () -> {
                        throw new java.io.IOException("ping failed");
                    },
                    pool);
            Health health = Health.builder().liveness("ping", check, SECOND).build();

            assertThat(health.liveness()
                            .toCompletableFuture()
                            .join()
                            .checks()
                            .get(0)
                            .status())
                    .isEqualTo(HealthStatus.down("java.io.IOException: ping failed"));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void writesTheReportAsJson() {
        HealthReport report = new HealthReport(java.util.List.of(
                new CheckResult("db", HealthStatus.up(), Duration.ofNanos(1_200_000)),
                new CheckResult("cache \"main\"", HealthStatus.down("timed out"), Duration.ofMillis(2))));

        assertThat(report.toJson())
                .isEqualTo(
                        "{\"status\":\"DOWN\",\"checks\":{\"db\":{\"status\":\"UP\",\"durationMs\":1.200},"
                                + "\"cache \\\"main\\\"\":{\"status\":\"DOWN\",\"detail\":\"timed out\",\"durationMs\":2.000}}}");
    }

    @Test
    void answers200WhenUpAnd503WhenDown() throws Exception {
        Health health = Health.builder()
                .liveness("ok", () -> CompletableFuture.completedFuture(HealthStatus.up()), SECOND)
                .readiness("db", () -> CompletableFuture.completedFuture(HealthStatus.down("no db")), SECOND)
                .build();

        HttpResponse live = health.livenessHandler()
                .handle(new StubContext(), null)
                .toCompletableFuture()
                .join();
        HttpResponse ready = health.readinessHandler()
                .handle(new StubContext(), null)
                .toCompletableFuture()
                .join();

        assertThat(live.status().code()).isEqualTo(200);
        assertThat(live.headers().get("content-type")).isEqualTo("application/json");
        assertThat(live.headers().get("cache-control")).isEqualTo("no-store");
        assertThat(ready.status().code()).isEqualTo(503);
        assertThat(ready.body().aggregate(1024).toCompletableFuture().join().toStringUtf8())
                .startsWith("{\"status\":\"DOWN\"");
    }

    @Test
    void rejectsATakenNameAndATimeoutThatIsNotPositive() {
        Health.Builder builder =
                Health.builder().liveness("db", () -> CompletableFuture.completedFuture(HealthStatus.up()), SECOND);

        assertThatThrownBy(() -> builder.liveness("db", () -> null, SECOND))
                .hasMessage("name: db (expected: a name not used yet)");
        assertThatThrownBy(() -> builder.readiness("db", () -> null, Duration.ZERO))
                .hasMessage("timeout: PT0S (expected: > 0)");
    }
}
