package io.parry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OverloadOptionsTest {
    @Test
    void isOffByDefault() {
        OverloadOptions options = OverloadOptions.builder().build();

        assertThat(options.isEnabled()).isFalse();
        assertThat(options).isEqualTo(OverloadOptions.off());
        assertThat(options.retryAfter()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void isOnWithAnySignal() {
        assertThat(OverloadOptions.builder().maxInFlight(10).build().isEnabled())
                .isTrue();
        assertThat(OverloadOptions.builder().heap(0.9).build().isEnabled()).isTrue();
        assertThat(OverloadOptions.builder().directMemory(1).build().isEnabled())
                .isTrue();
        assertThat(OverloadOptions.builder()
                        .eventLoopLag(Duration.ofMillis(1))
                        .build()
                        .isEnabled())
                .isTrue();
    }

    @Test
    void survivesARoundTripThroughItsBuilder() {
        OverloadOptions options = OverloadOptions.builder()
                .eventLoopLag(Duration.ofMillis(200))
                .maxInFlight(100)
                .heap(0.9)
                .directMemoryFraction(0.5)
                .retryAfter(Duration.ofSeconds(2))
                .recovery(0.7)
                .sampleInterval(Duration.ofMillis(20))
                .build();

        assertThat(options.toBuilder().build()).isEqualTo(options).hasSameHashCodeAs(options);
        assertThat(options.directMemory()).isPositive();
    }

    @Test
    void refusesValuesOutOfRange() {
        assertThatThrownBy(() -> OverloadOptions.builder().heap(1.5).build())
                .hasMessage("heap: 1.5 (expected: 0 to 1, 0 disables)");
        assertThatThrownBy(() -> OverloadOptions.builder().maxInFlight(-1).build())
                .hasMessage("maxInFlight: -1 (expected: >= 0, 0 disables)");
        assertThatThrownBy(() -> OverloadOptions.builder().directMemory(-1).build())
                .hasMessage("directMemory: -1 (expected: >= 0, 0 disables)");
        assertThatThrownBy(() ->
                        OverloadOptions.builder().retryAfter(Duration.ZERO).build())
                .hasMessage("retryAfter: PT0S (expected: > 0)");
        assertThatThrownBy(() -> OverloadOptions.builder().recovery(0).build())
                .hasMessage("recovery: 0.0 (expected: > 0 and <= 1)");
        assertThatThrownBy(() -> OverloadOptions.builder().directMemoryFraction(2))
                .hasMessage("directMemoryFraction: 2.0 (expected: > 0 and <= 1)");
    }
}
