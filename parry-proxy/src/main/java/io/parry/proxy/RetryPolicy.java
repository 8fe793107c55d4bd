package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * When a proxied request is tried again, on another endpoint when the upstream has one.
 *
 * <p>A request is retried when nothing of it reached the upstream (a failed connect, a full pool, a
 * pooled connection that was refused or reset before any byte was written), and, for idempotent
 * methods, when the upstream answered one of {@code retryStatuses} (default 502, 503, 504) or the
 * connection broke after the request was sent. A request whose body was partly sent is never retried
 * unless the body was held in the replay buffer: a body whose declared length is at most {@code
 * replayBufferSize} bytes is read in full before the first attempt (default 0: never).
 *
 * <p>Retries wait a backoff with full jitter (a random time up to {@code backoff} times two to the
 * attempt, capped at {@code maxBackoff}) and draw on a retry budget: retries may add at most {@code
 * budgetPercent} percent of the recent requests, plus {@code minRetriesPerSecond}, so a failing
 * upstream is not hit with a retry storm.
 */
public final class RetryPolicy {
    private static final RetryPolicy DEFAULTS = builder().build();
    private static final RetryPolicy NONE = builder().maxAttempts(1).build();

    private final int maxAttempts;
    private final Set<Integer> retryStatuses;
    /** {@code retryStatuses} by {@code status - 500}, so the check per response boxes nothing. */
    private final boolean[] retryStatusTable = new boolean[100];

    private final Duration backoff;
    private final Duration maxBackoff;
    private final long backoffNanos;
    private final long maxBackoffNanos;
    private final int budgetPercent;
    private final int minRetriesPerSecond;
    private final int replayBufferSize;

    private RetryPolicy(Builder builder) {
        this.maxAttempts = builder.maxAttempts;
        this.retryStatuses = Collections.unmodifiableSet(new LinkedHashSet<>(builder.retryStatuses));
        for (int status : retryStatuses) {
            retryStatusTable[status - 500] = true;
        }
        this.backoff = builder.backoff;
        this.maxBackoff = builder.maxBackoff;
        this.backoffNanos = saturatedNanos(backoff);
        this.maxBackoffNanos = saturatedNanos(maxBackoff);
        this.budgetPercent = builder.budgetPercent;
        this.minRetriesPerSecond = builder.minRetriesPerSecond;
        this.replayBufferSize = builder.replayBufferSize;
    }

    /** The defaults: 3 attempts, 502/503/504, 10 ms backoff up to 250 ms, a 20 % budget plus 10/s. */
    public static RetryPolicy ofDefault() {
        return DEFAULTS;
    }

    /** No retries. */
    public static RetryPolicy none() {
        return NONE;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this policy. */
    public Builder toBuilder() {
        return new Builder()
                .maxAttempts(maxAttempts)
                .retryStatuses(retryStatuses)
                .backoff(backoff)
                .maxBackoff(maxBackoff)
                .budgetPercent(budgetPercent)
                .minRetriesPerSecond(minRetriesPerSecond)
                .replayBufferSize(replayBufferSize);
    }

    /** The most attempts per request, the first included. */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** The statuses that retry an idempotent request, in the order given. */
    public Set<Integer> retryStatuses() {
        return retryStatuses;
    }

    /** Whether the status is one of {@link #retryStatuses()}. */
    boolean retriesStatus(int status) {
        return status >= 500 && status <= 599 && retryStatusTable[status - 500];
    }

    /**
     * The longest wait before retry number {@code retry} (1 for the first): the base backoff doubled
     * {@code retry - 1} times, capped at the longest backoff, without overflowing; 0 when the base is 0.
     */
    long backoffCeilingNanos(int retry) {
        if (backoffNanos == 0) {
            return 0;
        }
        int doublings = retry - 1;
        // Shifting into the sign bit would overflow; the cap is smaller than that anyway.
        return doublings >= Long.numberOfLeadingZeros(backoffNanos) - 1
                ? maxBackoffNanos
                : Math.min(maxBackoffNanos, backoffNanos << doublings);
    }

    /** Nanoseconds, at most a quarter of {@code Long.MAX_VALUE} so a bound plus one cannot overflow. */
    private static long saturatedNanos(Duration duration) {
        long limit = Long.MAX_VALUE / 4;
        return duration.compareTo(Duration.ofNanos(limit)) >= 0 ? limit : duration.toNanos();
    }

    /** The base backoff. */
    public Duration backoff() {
        return backoff;
    }

    /** The longest backoff. */
    public Duration maxBackoff() {
        return maxBackoff;
    }

    /** Retries as a percentage of recent requests that the budget allows. */
    public int budgetPercent() {
        return budgetPercent;
    }

    /** Retries per second the budget always allows. */
    public int minRetriesPerSecond() {
        return minRetriesPerSecond;
    }

    /** The largest declared body length read in full so it can be replayed; 0 for none. */
    public int replayBufferSize() {
        return replayBufferSize;
    }

    @Override
    public String toString() {
        return "RetryPolicy{maxAttempts=" + maxAttempts + ", retryStatuses=" + retryStatuses + ", backoff=" + backoff
                + ", maxBackoff=" + maxBackoff + ", budgetPercent=" + budgetPercent + ", minRetriesPerSecond="
                + minRetriesPerSecond + ", replayBufferSize=" + replayBufferSize + "}";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RetryPolicy that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {
            maxAttempts, retryStatuses, backoff, maxBackoff, budgetPercent, minRetriesPerSecond, replayBufferSize
        };
    }

    /** Builds a {@link RetryPolicy}; not thread-safe. */
    public static final class Builder {
        private int maxAttempts = 3;
        private Set<Integer> retryStatuses = new LinkedHashSet<>(List.of(502, 503, 504));
        private Duration backoff = Duration.ofMillis(10);
        private Duration maxBackoff = Duration.ofMillis(250);
        private int budgetPercent = 20;
        private int minRetriesPerSecond = 10;
        private int replayBufferSize;

        private Builder() {}

        /** Sets the most attempts per request, the first included; 1 disables retries. */
        public Builder maxAttempts(int attempts) {
            this.maxAttempts = attempts;
            return this;
        }

        /** Sets the statuses (500..599) that retry an idempotent request. */
        public Builder retryStatuses(Set<Integer> statuses) {
            this.retryStatuses = requireNonNull(statuses, "retryStatuses");
            return this;
        }

        /** Sets the base backoff; zero retries at once. */
        public Builder backoff(Duration backoff) {
            this.backoff = requireNonNull(backoff, "backoff");
            return this;
        }

        /** Sets the longest backoff. */
        public Builder maxBackoff(Duration maxBackoff) {
            this.maxBackoff = requireNonNull(maxBackoff, "maxBackoff");
            return this;
        }

        /** Sets retries as a percentage (0..100) of recent requests. */
        public Builder budgetPercent(int percent) {
            this.budgetPercent = percent;
            return this;
        }

        /** Sets retries per second the budget always allows. */
        public Builder minRetriesPerSecond(int retries) {
            this.minRetriesPerSecond = retries;
            return this;
        }

        /** Sets the largest declared body length held so it can be replayed; 0 for none. */
        public Builder replayBufferSize(int bytes) {
            this.replayBufferSize = bytes;
            return this;
        }

        /**
         * The policy.
         *
         * @throws IllegalArgumentException if a value is out of range
         */
        public RetryPolicy build() {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts: " + maxAttempts + " (expected: > 0)");
            }
            for (Integer status : retryStatuses) {
                if (status == null || status < 500 || status > 599) {
                    throw new IllegalArgumentException("retryStatuses: " + retryStatuses + " (expected: 500..599)");
                }
            }
            if (backoff.isNegative() || maxBackoff.compareTo(backoff) < 0) {
                throw new IllegalArgumentException("backoff: " + backoff + ", maxBackoff: " + maxBackoff
                        + " (expected: 0 <= backoff <= maxBackoff)");
            }
            if (budgetPercent < 0 || budgetPercent > 100) {
                throw new IllegalArgumentException("budgetPercent: " + budgetPercent + " (expected: 0..100)");
            }
            if (minRetriesPerSecond < 0 || minRetriesPerSecond > 100_000) {
                throw new IllegalArgumentException(
                        "minRetriesPerSecond: " + minRetriesPerSecond + " (expected: 0..100000)");
            }
            if (replayBufferSize < 0) {
                throw new IllegalArgumentException("replayBufferSize: " + replayBufferSize + " (expected: >= 0)");
            }
            return new RetryPolicy(this);
        }
    }
}
