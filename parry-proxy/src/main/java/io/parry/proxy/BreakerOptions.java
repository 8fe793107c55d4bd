package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Arrays;

/**
 * The circuit breaker each endpoint of a {@link GuardedUpstream} gets (Resilience4j, count-based
 * sliding window). A failure is a connect failure, a timeout, a broken or malformed response, or a
 * 502, 503 or 504 status. While a breaker is open its endpoint is skipped; with every breaker open the
 * proxy answers 503 at once.
 *
 * <ul>
 *   <li>{@code failureRateThreshold}: percent of failed calls that opens the breaker (default 50);
 *   <li>{@code slidingWindowSize}: how many recent calls the rate is computed over (default 20);
 *   <li>{@code minimumCalls}: calls needed before the rate counts (default 10);
 *   <li>{@code openDuration}: how long it stays open before letting trial calls through (default 10 s, at least 1 ms);
 *   <li>{@code halfOpenCalls}: trial calls in the half-open state (default 3).
 * </ul>
 */
public final class BreakerOptions {
    private static final BreakerOptions DEFAULTS = builder().build();
    private static final BreakerOptions DISABLED = new BreakerOptions(builder(), false);

    private final boolean enabled;
    private final int failureRateThreshold;
    private final int slidingWindowSize;
    private final int minimumCalls;
    private final Duration openDuration;
    private final int halfOpenCalls;

    private BreakerOptions(Builder builder, boolean enabled) {
        this.enabled = enabled;
        this.failureRateThreshold = builder.failureRateThreshold;
        this.slidingWindowSize = builder.slidingWindowSize;
        this.minimumCalls = builder.minimumCalls;
        this.openDuration = builder.openDuration;
        this.halfOpenCalls = builder.halfOpenCalls;
    }

    /** The defaults. */
    public static BreakerOptions ofDefault() {
        return DEFAULTS;
    }

    /** No circuit breaking. */
    public static BreakerOptions disabled() {
        return DISABLED;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder starting from these options; it builds enabled options, so {@code disabled().toBuilder()}
     * gives the defaults.
     */
    public Builder toBuilder() {
        return new Builder()
                .failureRateThreshold(failureRateThreshold)
                .slidingWindowSize(slidingWindowSize)
                .minimumCalls(minimumCalls)
                .openDuration(openDuration)
                .halfOpenCalls(halfOpenCalls);
    }

    /** Whether breakers are used at all. */
    public boolean enabled() {
        return enabled;
    }

    /** The failure rate, in percent, that opens a breaker. */
    public int failureRateThreshold() {
        return failureRateThreshold;
    }

    /** How many recent calls the rate is computed over. */
    public int slidingWindowSize() {
        return slidingWindowSize;
    }

    /** Calls needed before the rate counts. */
    public int minimumCalls() {
        return minimumCalls;
    }

    /** How long a breaker stays open. */
    public Duration openDuration() {
        return openDuration;
    }

    /** Trial calls in the half-open state. */
    public int halfOpenCalls() {
        return halfOpenCalls;
    }

    @Override
    public String toString() {
        return enabled
                ? "BreakerOptions{failureRateThreshold=" + failureRateThreshold + ", slidingWindowSize="
                        + slidingWindowSize + ", minimumCalls=" + minimumCalls + ", openDuration=" + openDuration
                        + ", halfOpenCalls=" + halfOpenCalls + "}"
                : "BreakerOptions{disabled}";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BreakerOptions that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {enabled, failureRateThreshold, slidingWindowSize, minimumCalls, openDuration, halfOpenCalls
        };
    }

    /** Builds {@link BreakerOptions}; not thread-safe. */
    public static final class Builder {
        private int failureRateThreshold = 50;
        private int slidingWindowSize = 20;
        private int minimumCalls = 10;
        private Duration openDuration = Duration.ofSeconds(10);
        private int halfOpenCalls = 3;

        private Builder() {}

        /** Sets the failure rate, in percent (1..100), that opens a breaker. */
        public Builder failureRateThreshold(int percent) {
            this.failureRateThreshold = percent;
            return this;
        }

        /** Sets how many recent calls the rate is computed over. */
        public Builder slidingWindowSize(int calls) {
            this.slidingWindowSize = calls;
            return this;
        }

        /** Sets the calls needed before the rate counts. */
        public Builder minimumCalls(int calls) {
            this.minimumCalls = calls;
            return this;
        }

        /** Sets how long a breaker stays open before trial calls. */
        public Builder openDuration(Duration duration) {
            this.openDuration = requireNonNull(duration, "openDuration");
            return this;
        }

        /** Sets the trial calls in the half-open state. */
        public Builder halfOpenCalls(int calls) {
            this.halfOpenCalls = calls;
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if a value is out of range
         */
        public BreakerOptions build() {
            if (failureRateThreshold < 1 || failureRateThreshold > 100) {
                throw new IllegalArgumentException(
                        "failureRateThreshold: " + failureRateThreshold + " (expected: 1..100)");
            }
            positive("slidingWindowSize", slidingWindowSize);
            positive("minimumCalls", minimumCalls);
            positive("halfOpenCalls", halfOpenCalls);
            // Resilience4j refuses a wait in the open state under one millisecond when the breaker is built.
            if (openDuration.compareTo(Duration.ofMillis(1)) < 0) {
                throw new IllegalArgumentException("openDuration: " + openDuration + " (expected: >= 1 ms)");
            }
            return new BreakerOptions(this, true);
        }

        private static void positive(String name, int value) {
            if (value < 1) {
                throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
            }
        }
    }
}
