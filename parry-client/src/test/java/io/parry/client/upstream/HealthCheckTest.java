package io.parry.client.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HealthCheckTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        HealthCheck check = HealthCheck.builder("/health").build();

        assertThat(check.path()).isEqualTo("/health");
        assertThat(check.interval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(check.timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(check.healthyThreshold()).isEqualTo(2);
        assertThat(check.unhealthyThreshold()).isEqualTo(3);
    }

    @Test
    void toBuilderKeepsEverySetting() {
        HealthCheck check = HealthCheck.builder("/ready?deep=true")
                .interval(Duration.ofSeconds(1))
                .timeout(Duration.ofMillis(300))
                .healthyThreshold(4)
                .unhealthyThreshold(1)
                .build();

        assertThat(check.toBuilder().build()).usingRecursiveComparison().isEqualTo(check);
    }

    @Test
    void rejectsAPathThatIsNotOriginForm() {
        assertThatThrownBy(() -> HealthCheck.builder("health").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("path: health (expected: an origin-form path such as /health)");
        assertThatThrownBy(() -> HealthCheck.builder("/he alth").build())
                .hasMessage("path: /he alth (expected: an origin-form path such as /health)");
    }

    @Test
    void rejectsTimesThatAreNotPositive() {
        assertThatThrownBy(() ->
                        HealthCheck.builder("/health").interval(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("interval: PT0S (expected: > 0)");
        assertThatThrownBy(() -> HealthCheck.builder("/health")
                        .timeout(Duration.ofMillis(-1))
                        .build())
                .hasMessage("timeout: PT-0.001S (expected: > 0)");
    }

    @Test
    void rejectsThresholdsBelowOne() {
        assertThatThrownBy(
                        () -> HealthCheck.builder("/health").healthyThreshold(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("healthyThreshold: 0 (expected: > 0)");
        assertThatThrownBy(() ->
                        HealthCheck.builder("/health").unhealthyThreshold(0).build())
                .hasMessage("unhealthyThreshold: 0 (expected: > 0)");
    }

    @Test
    void rejectsNullsByName() {
        assertThatThrownBy(() -> HealthCheck.builder(null)).hasMessage("path");
        assertThatThrownBy(() -> HealthCheck.builder("/health").interval(null)).hasMessage("interval");
        assertThatThrownBy(() -> HealthCheck.builder("/health").timeout(null)).hasMessage("timeout");
    }
}
