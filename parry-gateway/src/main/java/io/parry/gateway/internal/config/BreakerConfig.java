package io.parry.gateway.internal.config;

import io.parry.proxy.BreakerOptions;
import java.time.Duration;

/**
 * An upstream group's per-endpoint circuit breaker (YAML {@code breaker}, or {@code off}), as in
 * {@link BreakerOptions}.
 *
 * @param enabled false after {@code breaker: off}
 * @param failureRateThreshold the failure rate, in percent, that opens a breaker (default 50)
 * @param slidingWindowSize how many recent calls the rate is computed over (default 20)
 * @param minimumCalls calls needed before the rate counts (default 10)
 * @param openDuration how long a breaker stays open (default 10 s)
 * @param halfOpenCalls trial calls in the half-open state (default 3)
 */
public record BreakerConfig(
        boolean enabled,
        int failureRateThreshold,
        int slidingWindowSize,
        int minimumCalls,
        Duration openDuration,
        int halfOpenCalls) {
    /** The defaults, those of {@link BreakerOptions#ofDefault()}. */
    public static final BreakerConfig DEFAULT = new BreakerConfig(
            true,
            BreakerOptions.ofDefault().failureRateThreshold(),
            BreakerOptions.ofDefault().slidingWindowSize(),
            BreakerOptions.ofDefault().minimumCalls(),
            BreakerOptions.ofDefault().openDuration(),
            BreakerOptions.ofDefault().halfOpenCalls());

    /** No circuit breaking. */
    public static final BreakerConfig OFF = new BreakerConfig(
            false,
            DEFAULT.failureRateThreshold,
            DEFAULT.slidingWindowSize,
            DEFAULT.minimumCalls,
            DEFAULT.openDuration,
            DEFAULT.halfOpenCalls);

    /** These settings as proxy options. */
    public BreakerOptions toOptions() {
        if (!enabled) {
            return BreakerOptions.disabled();
        }
        return BreakerOptions.builder()
                .failureRateThreshold(failureRateThreshold)
                .slidingWindowSize(slidingWindowSize)
                .minimumCalls(minimumCalls)
                .openDuration(openDuration)
                .halfOpenCalls(halfOpenCalls)
                .build();
    }
}
