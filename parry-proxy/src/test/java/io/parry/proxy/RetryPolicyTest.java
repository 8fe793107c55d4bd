package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    @Test
    void defaultsToThreeAttemptsOnGatewayFailuresWithAShortBackoff() {
        RetryPolicy policy = RetryPolicy.ofDefault();

        assertThat(policy.maxAttempts()).isEqualTo(3);
        assertThat(policy.retryStatuses()).containsExactlyInAnyOrder(502, 503, 504);
        assertThat(policy.backoff()).isEqualTo(Duration.ofMillis(10));
        assertThat(policy.maxBackoff()).isEqualTo(Duration.ofMillis(250));
        assertThat(policy.replayBufferSize()).isZero();
        assertThat(RetryPolicy.none().maxAttempts()).isEqualTo(1);
    }

    @Test
    void retriesExactlyTheChosenStatuses() {
        RetryPolicy policy =
                RetryPolicy.builder().retryStatuses(Set.of(503, 599)).build();

        assertThat(policy.retriesStatus(503)).isTrue();
        assertThat(policy.retriesStatus(599)).isTrue();
        assertThat(policy.retriesStatus(502)).isFalse();
        assertThat(policy.retriesStatus(200)).isFalse();
        assertThat(policy.retriesStatus(600)).isFalse();
        assertThat(policy.retriesStatus(-1)).isFalse();
    }

    @Test
    void doublesTheBackoffCeilingUpToTheLongestBackoff() {
        RetryPolicy policy = RetryPolicy.builder()
                .backoff(Duration.ofMillis(10))
                .maxBackoff(Duration.ofMillis(50))
                .build();

        assertThat(policy.backoffCeilingNanos(1))
                .isEqualTo(Duration.ofMillis(10).toNanos());
        assertThat(policy.backoffCeilingNanos(2))
                .isEqualTo(Duration.ofMillis(20).toNanos());
        assertThat(policy.backoffCeilingNanos(3))
                .isEqualTo(Duration.ofMillis(40).toNanos());
        assertThat(policy.backoffCeilingNanos(4))
                .isEqualTo(Duration.ofMillis(50).toNanos());
        assertThat(policy.backoffCeilingNanos(1_000))
                .isEqualTo(Duration.ofMillis(50).toNanos());
    }

    @Test
    void neverOverflowsTheBackoffCeiling() {
        RetryPolicy hours = RetryPolicy.builder()
                .maxAttempts(100)
                .backoff(Duration.ofHours(4))
                .maxBackoff(Duration.ofHours(8))
                .build();
        RetryPolicy centuries = RetryPolicy.builder()
                .backoff(Duration.ofDays(365L * 1_000))
                .maxBackoff(Duration.ofDays(365L * 1_000))
                .build();

        assertThat(hours.backoffCeilingNanos(21)).isEqualTo(Duration.ofHours(8).toNanos());
        assertThat(hours.backoffCeilingNanos(99)).isEqualTo(Duration.ofHours(8).toNanos());
        assertThat(centuries.backoffCeilingNanos(1)).isPositive().isLessThan(Long.MAX_VALUE);
        assertThat(centuries.backoffCeilingNanos(50)).isPositive().isLessThan(Long.MAX_VALUE);
    }

    @Test
    void retriesAtOnceWithoutABackoff() {
        RetryPolicy policy = RetryPolicy.builder().backoff(Duration.ZERO).build();

        assertThat(policy.backoffCeilingNanos(1)).isZero();
        assertThat(policy.backoffCeilingNanos(5)).isZero();
    }

    @Test
    void rebuildsItselfFromItsBuilder() {
        RetryPolicy policy = RetryPolicy.builder()
                .maxAttempts(5)
                .retryStatuses(Set.of(503))
                .backoff(Duration.ofMillis(1))
                .maxBackoff(Duration.ofMillis(2))
                .budgetPercent(50)
                .minRetriesPerSecond(3)
                .replayBufferSize(1024)
                .build();

        assertThat(policy.toBuilder().build()).hasToString(policy.toString());
    }

    @Test
    void refusesValuesOutOfRange() {
        assertThatThrownBy(() -> RetryPolicy.builder().maxAttempts(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxAttempts: 0 (expected: > 0)");
        assertThatThrownBy(
                        () -> RetryPolicy.builder().retryStatuses(Set.of(404)).build())
                .hasMessage("retryStatuses: [404] (expected: 500..599)");
        assertThatThrownBy(() -> RetryPolicy.builder()
                        .backoff(Duration.ofSeconds(1))
                        .maxBackoff(Duration.ofMillis(1))
                        .build())
                .hasMessageContaining("(expected: 0 <= backoff <= maxBackoff)");
        assertThatThrownBy(() -> RetryPolicy.builder().budgetPercent(101).build())
                .hasMessage("budgetPercent: 101 (expected: 0..100)");
        assertThatThrownBy(() -> RetryPolicy.builder().minRetriesPerSecond(-1).build())
                .hasMessage("minRetriesPerSecond: -1 (expected: 0..100000)");
        assertThatThrownBy(() -> RetryPolicy.builder().replayBufferSize(-1).build())
                .hasMessage("replayBufferSize: -1 (expected: >= 0)");
    }

    @Test
    void keepsRetryStatusesInTheOrderGiven() {
        assertThat(RetryPolicy.ofDefault().retryStatuses()).containsExactly(502, 503, 504);
        assertThat(RetryPolicy.builder()
                        .retryStatuses(new LinkedHashSet<>(List.of(504, 500, 502)))
                        .build()
                        .retryStatuses())
                .containsExactly(504, 500, 502);
    }
}
