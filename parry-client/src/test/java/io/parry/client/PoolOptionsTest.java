package io.parry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PoolOptionsTest {

    @Test
    void hasTheDocumentedDefaults() {
        PoolOptions defaults = PoolOptions.ofDefault();

        assertThat(defaults.maxConnections()).isEqualTo(4096);
        assertThat(defaults.maxPending()).isEqualTo(1024);
        assertThat(defaults.idleTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.maxLifetime()).isZero();
        assertThat(defaults.abandonedDrain()).isEqualTo(64 * 1024);
        assertThat(defaults.abandonedDrainTime()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void copiesEveryValueThroughItsBuilder() {
        PoolOptions options = PoolOptions.builder()
                .maxConnections(3)
                .maxPending(0)
                .idleTimeout(Duration.ofSeconds(5))
                .maxLifetime(Duration.ofMinutes(1))
                .abandonedDrain(0)
                .abandonedDrainTime(Duration.ofMillis(300))
                .build();

        assertThat(options.toBuilder().build()).usingRecursiveComparison().isEqualTo(options);
        assertThat(options.toString()).contains("abandonedDrain=0, abandonedDrainTime=PT0.3S");
    }

    @Test
    void refusesValuesOutOfRange() {
        assertThatThrownBy(() -> PoolOptions.builder().maxConnections(0).build())
                .hasMessage("maxConnections: 0 (expected: > 0)");
        assertThatThrownBy(() -> PoolOptions.builder().maxPending(-1).build())
                .hasMessage("maxPending: -1 (expected: >= 0)");
        assertThatThrownBy(() -> PoolOptions.builder().abandonedDrain(-1).build())
                .hasMessage("abandonedDrain: -1 (expected: >= 0)");
        assertThatThrownBy(() -> PoolOptions.builder()
                        .abandonedDrainTime(Duration.ofSeconds(-1))
                        .build())
                .hasMessage("abandonedDrainTime: PT-1S (expected: >= 0)");
    }
}
