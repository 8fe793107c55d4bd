package io.parry.gateway.internal.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.parry.server.health.CheckResult;
import io.parry.server.health.HealthReport;
import io.parry.server.health.HealthStatus;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class GatewayHealthTest {
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicLong version = new AtomicLong();

    @Test
    void isNotReadyUntilAConfigurationIsApplied() {
        GatewayHealth health = new GatewayHealth();

        HealthReport before = readiness(health);
        version.set(1);
        HealthReport after = readiness(health);

        assertThat(before.isUp()).isFalse();
        assertThat(before.checks())
                .extracting(CheckResult::name, CheckResult::status)
                .containsExactly(
                        tuple("server", HealthStatus.up()),
                        tuple("config", HealthStatus.down("no configuration applied yet")));
        assertThat(after.isUp()).isTrue();
        assertThat(after.checks().get(1).status()).isEqualTo(HealthStatus.up("version 1"));
    }

    @Test
    void isNotReadyOnceDrainingBegins() {
        version.set(3);
        draining.set(true);

        HealthReport report = readiness(new GatewayHealth());

        assertThat(report.isUp()).isFalse();
        assertThat(report.checks().get(0).status()).isEqualTo(HealthStatus.down("draining"));
    }

    @Test
    void runsTheEmbeddersChecksAfterItsOwn() {
        version.set(1);
        GatewayHealth health = new GatewayHealth();
        health.readiness("db", () -> CompletableFuture.completedFuture(HealthStatus.up()), Duration.ofSeconds(1));
        health.liveness("loops", () -> CompletableFuture.completedFuture(HealthStatus.up()), Duration.ofSeconds(1));

        assertThat(readiness(health).checks()).extracting(CheckResult::name).containsExactly("server", "config", "db");
        assertThat(health.build(draining::get, version::get)
                        .liveness()
                        .toCompletableFuture()
                        .join()
                        .checks())
                .extracting(CheckResult::name)
                .containsExactly("loops");
    }

    private HealthReport readiness(GatewayHealth health) {
        return health.build(draining::get, version::get)
                .readiness()
                .toCompletableFuture()
                .join();
    }
}
