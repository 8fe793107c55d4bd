package io.parry.gateway.internal.config;

import io.parry.proxy.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * A proxy route's retry policy (YAML {@code retry}, or {@code off}), as in {@link RetryPolicy}.
 *
 * @param maxAttempts the most attempts per request, the first included; 1 for no retries (default 3)
 * @param retryStatuses the statuses that retry an idempotent request (default 502, 503, 504)
 * @param backoff the base backoff (default 10 ms)
 * @param maxBackoff the longest backoff (default 250 ms)
 * @param budgetPercent retries as a percentage of recent requests (default 20)
 * @param replayBufferSize the largest declared body length held for replay, in bytes; 0 for none (the default)
 */
public record RetryConfig(
        int maxAttempts,
        List<Integer> retryStatuses,
        Duration backoff,
        Duration maxBackoff,
        int budgetPercent,
        int replayBufferSize) {
    /** The defaults, those of {@link RetryPolicy#ofDefault()}. */
    public static final RetryConfig DEFAULT = new RetryConfig(
            RetryPolicy.ofDefault().maxAttempts(),
            List.of(502, 503, 504),
            RetryPolicy.ofDefault().backoff(),
            RetryPolicy.ofDefault().maxBackoff(),
            RetryPolicy.ofDefault().budgetPercent(),
            RetryPolicy.ofDefault().replayBufferSize());

    /** No retries ({@code retry: off}). */
    public static final RetryConfig OFF =
            new RetryConfig(1, DEFAULT.retryStatuses, DEFAULT.backoff, DEFAULT.maxBackoff, DEFAULT.budgetPercent, 0);

    /** Copies the list. */
    public RetryConfig {
        retryStatuses = List.copyOf(retryStatuses);
    }

    /** This policy as a proxy option. */
    public RetryPolicy toPolicy() {
        return RetryPolicy.builder()
                .maxAttempts(maxAttempts)
                .retryStatuses(Set.copyOf(retryStatuses))
                .backoff(backoff)
                .maxBackoff(maxBackoff)
                .budgetPercent(budgetPercent)
                .replayBufferSize(replayBufferSize)
                .build();
    }
}
