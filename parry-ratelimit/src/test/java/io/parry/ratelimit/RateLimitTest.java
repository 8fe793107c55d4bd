package io.parry.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateLimitTest {

    @Test
    void defaultsTheBurstToTheRate() {
        RateLimit limit = RateLimit.perSecond(100);
        assertThat(limit.burst()).isEqualTo(100);
        assertThat(limit.intervalNanos()).isEqualTo(10_000_000L);
        assertThat(limit.capacityNanos()).isEqualTo(1_000_000_000L);
    }

    @Test
    void isAValue() {
        RateLimit limit = RateLimit.builder()
                .rate(5)
                .period(Duration.ofMinutes(1))
                .burst(20)
                .build();
        assertThat(limit.toBuilder().build()).isEqualTo(limit).hasSameHashCodeAs(limit);
        assertThat(limit.toBuilder().burst(21).build()).isNotEqualTo(limit);
    }

    @Test
    void refusesLimitsThatMeanNothing() {
        assertThatThrownBy(() -> RateLimit.builder().rate(0).build()).hasMessage("rate: 0 (expected: > 0)");
        assertThatThrownBy(() -> RateLimit.builder().burst(0).build()).hasMessage("burst: 0 (expected: > 0)");
        assertThatThrownBy(() -> RateLimit.builder().period(Duration.ZERO).build())
                .hasMessage("period: PT0S (expected: > 0)");
    }
}
