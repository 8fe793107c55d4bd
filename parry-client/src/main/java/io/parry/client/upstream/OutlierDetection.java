package io.parry.client.upstream;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Arrays;

/**
 * Passive ejection: after {@code consecutiveFailures} failed calls in a row, an endpoint is ejected
 * for {@code ejectionTime}, doubled for each consecutive ejection (one with no successful call since
 * the previous) up to {@code maxEjectionTime}. At most {@code maxEjectionPercent} of the group,
 * rounded down, is ejected at once, and never the last endpoint that is healthy; so at least one
 * endpoint stays selectable unless all of them fail their health checks.
 *
 * <p>The defaults are 5 failures, 30 s, at most 300 s and 50 %: a group of one endpoint is never
 * ejected, a group of two at most one. What counts as a failure is the caller's choice (see {@link
 * Upstream#callFinished}).
 *
 * <pre>{@code
 * OutlierDetection detection = OutlierDetection.builder()
 *         .consecutiveFailures(3)
 *         .ejectionTime(Duration.ofSeconds(10))
 *         .build();
 * }</pre>
 */
public final class OutlierDetection {
    private static final OutlierDetection DEFAULTS = builder().build();
    private static final OutlierDetection DISABLED =
            builder().maxEjectionPercent(0).build();

    private final int consecutiveFailures;
    private final Duration ejectionTime;
    private final Duration maxEjectionTime;
    private final int maxEjectionPercent;

    private OutlierDetection(Builder builder) {
        this.consecutiveFailures = builder.consecutiveFailures;
        this.ejectionTime = builder.ejectionTime;
        this.maxEjectionTime = builder.maxEjectionTime;
        this.maxEjectionPercent = builder.maxEjectionPercent;
    }

    /** The defaults: 5 failures in a row eject for 30 s, at most 300 s, at most 50 % of the group. */
    public static OutlierDetection ofDefault() {
        return DEFAULTS;
    }

    /** No ejection: the defaults with {@code maxEjectionPercent} 0. Failures are still counted. */
    public static OutlierDetection disabled() {
        return DISABLED;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder()
                .consecutiveFailures(consecutiveFailures)
                .ejectionTime(ejectionTime)
                .maxEjectionTime(maxEjectionTime)
                .maxEjectionPercent(maxEjectionPercent);
    }

    /** Whether endpoints may be ejected at all: {@code maxEjectionPercent} is above 0. */
    public boolean enabled() {
        return maxEjectionPercent > 0;
    }

    /** The failed calls in a row that eject an endpoint. */
    public int consecutiveFailures() {
        return consecutiveFailures;
    }

    /** How long a first ejection lasts. */
    public Duration ejectionTime() {
        return ejectionTime;
    }

    /** The longest an ejection lasts, however often it doubled. */
    public Duration maxEjectionTime() {
        return maxEjectionTime;
    }

    /** The most of the group, in percent and rounded down, that may be ejected at once; 0 disables ejection. */
    public int maxEjectionPercent() {
        return maxEjectionPercent;
    }

    @Override
    public String toString() {
        return "OutlierDetection{consecutiveFailures=" + consecutiveFailures + ", ejectionTime=" + ejectionTime
                + ", maxEjectionTime=" + maxEjectionTime + ", maxEjectionPercent=" + maxEjectionPercent + "}";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof OutlierDetection that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {consecutiveFailures, ejectionTime, maxEjectionTime, maxEjectionPercent};
    }

    /** Builds {@link OutlierDetection}; not thread-safe. */
    public static final class Builder {
        private int consecutiveFailures = 5;
        private Duration ejectionTime = Duration.ofSeconds(30);
        private Duration maxEjectionTime = Duration.ofSeconds(300);
        private int maxEjectionPercent = 50;

        private Builder() {}

        /** Sets the failed calls in a row that eject an endpoint (default 5). */
        public Builder consecutiveFailures(int consecutiveFailures) {
            this.consecutiveFailures = consecutiveFailures;
            return this;
        }

        /** Sets how long a first ejection lasts (default 30 s). */
        public Builder ejectionTime(Duration ejectionTime) {
            this.ejectionTime = requireNonNull(ejectionTime, "ejectionTime");
            return this;
        }

        /** Sets the longest an ejection lasts (default 300 s); at least {@code ejectionTime}. */
        public Builder maxEjectionTime(Duration maxEjectionTime) {
            this.maxEjectionTime = requireNonNull(maxEjectionTime, "maxEjectionTime");
            return this;
        }

        /** Sets the most of the group, in percent, ejected at once (default 50); 0 disables ejection. */
        public Builder maxEjectionPercent(int maxEjectionPercent) {
            this.maxEjectionPercent = maxEjectionPercent;
            return this;
        }

        /**
         * The settings.
         *
         * @throws IllegalArgumentException if a value is out of range
         */
        public OutlierDetection build() {
            if (consecutiveFailures < 1) {
                throw new IllegalArgumentException("consecutiveFailures: " + consecutiveFailures + " (expected: > 0)");
            }
            if (ejectionTime.isNegative() || ejectionTime.isZero()) {
                throw new IllegalArgumentException("ejectionTime: " + ejectionTime + " (expected: > 0)");
            }
            if (maxEjectionTime.compareTo(ejectionTime) < 0) {
                throw new IllegalArgumentException(
                        "maxEjectionTime: " + maxEjectionTime + " (expected: >= ejectionTime " + ejectionTime + ")");
            }
            if (maxEjectionPercent < 0 || maxEjectionPercent > 100) {
                throw new IllegalArgumentException("maxEjectionPercent: " + maxEjectionPercent + " (expected: 0..100)");
            }
            return new OutlierDetection(this);
        }
    }
}
