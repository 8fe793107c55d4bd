package io.parry.ratelimit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Objects;

/**
 * A token bucket: {@code rate} tokens are added every {@code period}, up to {@code burst}; each request
 * takes one, and a request that finds the bucket empty is refused. A client that was quiet may send
 * {@code burst} requests at once, then {@code rate} per {@code period}.
 *
 * <pre>{@code
 * RateLimit limit = RateLimit.builder().rate(100).period(Duration.ofSeconds(1)).burst(100).build();
 * }</pre>
 *
 * <p>Immutable and thread-safe; equal limits are interchangeable, which is how a reloaded gateway keeps a
 * route's buckets when its limit did not change.
 */
public final class RateLimit {
    private final long rate;
    private final Duration period;
    private final long burst;
    private final long intervalNanos;

    private RateLimit(long rate, Duration period, long burst) {
        this.rate = rate;
        this.period = period;
        this.burst = burst;
        this.intervalNanos = Math.max(1, period.toNanos() / rate);
    }

    /** A limit of {@code rate} requests per second with a burst of as many. */
    public static RateLimit perSecond(long rate) {
        return builder().rate(rate).build();
    }

    /** A builder: rate 1 per second, burst equal to the rate unless set. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this limit. */
    public Builder toBuilder() {
        return new Builder().rate(rate).period(period).burst(burst);
    }

    /** Tokens added per period. */
    public long rate() {
        return rate;
    }

    /** The period the rate is counted over (default one second). */
    public Duration period() {
        return period;
    }

    /** The most tokens the bucket holds: requests a quiet client may send at once. */
    public long burst() {
        return burst;
    }

    /** Nanoseconds between two tokens: {@code period / rate}, at least 1. */
    public long intervalNanos() {
        return intervalNanos;
    }

    /** Nanoseconds an empty bucket takes to fill: {@code burst} intervals. */
    public long capacityNanos() {
        return Math.multiplyHigh(intervalNanos, burst) != 0 ? Long.MAX_VALUE : intervalNanos * burst;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RateLimit that
                && rate == that.rate
                && burst == that.burst
                && period.equals(that.period);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rate, period, burst);
    }

    @Override
    public String toString() {
        return "RateLimit{rate=" + rate + ", period=" + period + ", burst=" + burst + "}";
    }

    /** Builds a {@link RateLimit}; not thread-safe. */
    public static final class Builder {
        private long rate = 1;
        private Duration period = Duration.ofSeconds(1);
        private long burst = -1;

        private Builder() {}

        /** Sets the tokens added per period (default 1). */
        public Builder rate(long rate) {
            this.rate = rate;
            return this;
        }

        /** Sets the period the rate is counted over (default one second). */
        public Builder period(Duration period) {
            this.period = requireNonNull(period, "period");
            return this;
        }

        /** Sets the bucket's size (default: the rate). */
        public Builder burst(long burst) {
            this.burst = burst;
            return this;
        }

        /**
         * The limit.
         *
         * @throws IllegalArgumentException if the rate or burst is not positive, or the period is not
         *     positive or is shorter than one nanosecond per token
         */
        public RateLimit build() {
            if (rate <= 0) {
                throw new IllegalArgumentException("rate: " + rate + " (expected: > 0)");
            }
            if (period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("period: " + period + " (expected: > 0)");
            }
            if (period.toNanos() < rate) {
                throw new IllegalArgumentException(
                        "rate: " + rate + " per " + period + " (expected: at most one token per nanosecond)");
            }
            long size = burst == -1 ? rate : burst;
            if (size <= 0) {
                throw new IllegalArgumentException("burst: " + size + " (expected: > 0)");
            }
            return new RateLimit(rate, period, size);
        }
    }
}
