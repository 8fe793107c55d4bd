package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Arrays;

/**
 * The adaptive concurrency limit of a {@link GuardedUpstream}: how many requests may be in flight to
 * the group, found from the upstream's latency (a gradient limit in the style of Netflix's {@code
 * Gradient2Limit}) instead of configured. Requests past the limit are answered 503 at once, before
 * the upstream is contacted.
 *
 * <p>Every {@code window} (once it holds at least ten samples), the average latency of the window is
 * compared with a long-term average that stands for the upstream's latency unloaded: it rises slowly,
 * over {@code longWindow} windows, and falls quickly (a fifth of the way per window). While the short average stays
 * within {@code rttTolerance} of the long one the limit grows by {@code queueSize}; past it the limit
 * shrinks in proportion (by at most half), and each change is smoothed by {@code smoothing}. A window
 * in which the upstream timed out or answered 429, 503 or 504 multiplies the limit by {@code
 * backoffRatio} instead. The limit stays within {@code minLimit..maxLimit}, and does not grow while
 * fewer than half of its places are used.
 *
 * <ul>
 *   <li>{@code initialLimit}: the limit before any sample (default 20);
 *   <li>{@code minLimit} / {@code maxLimit}: its bounds (defaults 4 and 1000);
 *   <li>{@code rttTolerance}: how much slower than usual (a ratio, at least 1) the upstream may get before
 *       the limit shrinks (default 1.2: the limit settles where latency is about that much above the
 *       unloaded one plus what {@code queueSize} adds, and the long-term average creeps up during a long
 *       overload, so 1.5 let an overloaded upstream's p99 reach 2.5 times its unloaded p99 within 20
 *       seconds, where 1.2 kept it under 2);
 *   <li>{@code smoothing}: the weight of each new estimate, 0 (exclusive) to 1 (default 0.2);
 *   <li>{@code queueSize}: how many places the limit grows by per window (default 4);
 *   <li>{@code window}: how often the limit is recomputed (default 100 ms);
 *   <li>{@code longWindow}: how many windows the long-term latency averages (default 600, a minute);
 *   <li>{@code backoffRatio}: the factor applied after a window with upstream failures (default 0.9);
 *   <li>{@code probeInterval}: how often the limit drops to {@code minLimit} until ten requests sent
 *       to an upstream holding no more than that were answered, whose average latency then replaces
 *       the long-term one (default 30 s; zero for never), as Envoy's adaptive concurrency filter
 *       measures its minRTT: in a long overload the long-term average otherwise learns the upstream's
 *       queueing and lets latency drift up with it (an upstream offered three times what it serves
 *       reached twice its unloaded latency within a minute); a probe comes only if the limit refused
 *       requests in the window closed as it comes due, and is otherwise put off an interval, so a load
 *       the limit admits is never shed by one;
 *   <li>{@code probeJitter}: the most each probe is put off at random, as a share of {@code
 *       probeInterval}, so groups and gateways started together do not probe together (default 0.15).
 * </ul>
 */
public final class AdaptiveConcurrencyOptions {
    private static final AdaptiveConcurrencyOptions DEFAULTS = builder().build();

    private final int initialLimit;
    private final int minLimit;
    private final int maxLimit;
    private final double rttTolerance;
    private final double smoothing;
    private final int queueSize;
    private final Duration window;
    private final int longWindow;
    private final double backoffRatio;
    private final Duration probeInterval;
    private final double probeJitter;

    private AdaptiveConcurrencyOptions(Builder builder) {
        this.initialLimit = builder.initialLimit;
        this.minLimit = builder.minLimit;
        this.maxLimit = builder.maxLimit;
        this.rttTolerance = builder.rttTolerance;
        this.smoothing = builder.smoothing;
        this.queueSize = builder.queueSize;
        this.window = builder.window;
        this.longWindow = builder.longWindow;
        this.backoffRatio = builder.backoffRatio;
        this.probeInterval = builder.probeInterval;
        this.probeJitter = builder.probeJitter;
    }

    /** The defaults. */
    public static AdaptiveConcurrencyOptions ofDefault() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder()
                .initialLimit(initialLimit)
                .minLimit(minLimit)
                .maxLimit(maxLimit)
                .rttTolerance(rttTolerance)
                .smoothing(smoothing)
                .queueSize(queueSize)
                .window(window)
                .longWindow(longWindow)
                .backoffRatio(backoffRatio)
                .probeInterval(probeInterval)
                .probeJitter(probeJitter);
    }

    /** The limit before any sample. */
    public int initialLimit() {
        return initialLimit;
    }

    /** The lowest the limit goes. */
    public int minLimit() {
        return minLimit;
    }

    /** The highest the limit goes. */
    public int maxLimit() {
        return maxLimit;
    }

    /** How much slower than the long-term average the upstream may answer before the limit shrinks. */
    public double rttTolerance() {
        return rttTolerance;
    }

    /** The weight of each new estimate. */
    public double smoothing() {
        return smoothing;
    }

    /** How many places the limit grows by per window while latency holds. */
    public int queueSize() {
        return queueSize;
    }

    /** How often the limit is recomputed. */
    public Duration window() {
        return window;
    }

    /** How many windows the long-term latency averages over. */
    public int longWindow() {
        return longWindow;
    }

    /** The factor applied to the limit after a window with upstream failures. */
    public double backoffRatio() {
        return backoffRatio;
    }

    /** How often the limit drops to its minimum to measure the upstream's unloaded latency; zero for never. */
    public Duration probeInterval() {
        return probeInterval;
    }

    /** The most a probe is put off, as a share of {@link #probeInterval()}. */
    public double probeJitter() {
        return probeJitter;
    }

    @Override
    public String toString() {
        return "AdaptiveConcurrencyOptions{initialLimit=" + initialLimit + ", minLimit=" + minLimit + ", maxLimit="
                + maxLimit + ", rttTolerance=" + rttTolerance + ", smoothing=" + smoothing + ", queueSize="
                + queueSize + ", window=" + window + ", longWindow=" + longWindow + ", backoffRatio=" + backoffRatio
                + ", probeInterval=" + probeInterval + ", probeJitter=" + probeJitter + "}";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AdaptiveConcurrencyOptions that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {
            initialLimit,
            minLimit,
            maxLimit,
            rttTolerance,
            smoothing,
            queueSize,
            window,
            longWindow,
            backoffRatio,
            probeInterval,
            probeJitter
        };
    }

    /** Builds {@link AdaptiveConcurrencyOptions}; not thread-safe. */
    public static final class Builder {
        private int initialLimit = 20;
        private int minLimit = 4;
        private int maxLimit = 1000;
        private double rttTolerance = 1.2;
        private double smoothing = 0.2;
        private int queueSize = 4;
        private Duration window = Duration.ofMillis(100);
        private int longWindow = 600;
        private double backoffRatio = 0.9;
        private Duration probeInterval = Duration.ofSeconds(30);
        private double probeJitter = 0.15;

        private Builder() {}

        /** Sets the limit before any sample. */
        public Builder initialLimit(int limit) {
            this.initialLimit = limit;
            return this;
        }

        /** Sets the lowest the limit goes (at least 1). */
        public Builder minLimit(int limit) {
            this.minLimit = limit;
            return this;
        }

        /** Sets the highest the limit goes. */
        public Builder maxLimit(int limit) {
            this.maxLimit = limit;
            return this;
        }

        /** Sets how much slower than usual (a ratio, at least 1) the upstream may get before the limit shrinks. */
        public Builder rttTolerance(double ratio) {
            this.rttTolerance = ratio;
            return this;
        }

        /** Sets the weight of each new estimate, above 0 and at most 1. */
        public Builder smoothing(double weight) {
            this.smoothing = weight;
            return this;
        }

        /** Sets how many places the limit grows by per window (0 or more). */
        public Builder queueSize(int places) {
            this.queueSize = places;
            return this;
        }

        /** Sets how often the limit is recomputed (1 ms or more). */
        public Builder window(Duration window) {
            this.window = requireNonNull(window, "window");
            return this;
        }

        /** Sets how many windows the long-term latency averages over. */
        public Builder longWindow(int windows) {
            this.longWindow = windows;
            return this;
        }

        /** Sets the factor applied after a window with upstream failures, above 0 and below 1. */
        public Builder backoffRatio(double ratio) {
            this.backoffRatio = ratio;
            return this;
        }

        /**
         * Sets how often the limit drops to {@code minLimit} to measure the upstream's unloaded latency
         * anew; {@link Duration#ZERO} for never.
         */
        public Builder probeInterval(Duration interval) {
            this.probeInterval = requireNonNull(interval, "probeInterval");
            return this;
        }

        /** Sets the most a probe is put off at random, as a share of the interval, 0 to 1. */
        public Builder probeJitter(double share) {
            this.probeJitter = share;
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if a value is out of range
         */
        public AdaptiveConcurrencyOptions build() {
            if (minLimit < 1) {
                throw new IllegalArgumentException("minLimit: " + minLimit + " (expected: > 0)");
            }
            if (maxLimit < minLimit) {
                throw new IllegalArgumentException(
                        "maxLimit: " + maxLimit + " (expected: >= minLimit " + minLimit + ")");
            }
            if (initialLimit < minLimit || initialLimit > maxLimit) {
                throw new IllegalArgumentException(
                        "initialLimit: " + initialLimit + " (expected: " + minLimit + " to " + maxLimit + ")");
            }
            if (!(rttTolerance >= 1)) {
                throw new IllegalArgumentException("rttTolerance: " + rttTolerance + " (expected: >= 1)");
            }
            if (!(smoothing > 0 && smoothing <= 1)) {
                throw new IllegalArgumentException("smoothing: " + smoothing + " (expected: > 0 and <= 1)");
            }
            if (queueSize < 0) {
                throw new IllegalArgumentException("queueSize: " + queueSize + " (expected: >= 0)");
            }
            if (window.compareTo(Duration.ofMillis(1)) < 0) {
                throw new IllegalArgumentException("window: " + window + " (expected: >= 1 ms)");
            }
            if (longWindow < 1) {
                throw new IllegalArgumentException("longWindow: " + longWindow + " (expected: > 0)");
            }
            if (!(backoffRatio > 0 && backoffRatio < 1)) {
                throw new IllegalArgumentException("backoffRatio: " + backoffRatio + " (expected: > 0 and < 1)");
            }
            if (probeInterval.isNegative() || (!probeInterval.isZero() && probeInterval.compareTo(window) < 0)) {
                throw new IllegalArgumentException(
                        "probeInterval: " + probeInterval + " (expected: 0 or >= window " + window + ")");
            }
            if (!(probeJitter >= 0 && probeJitter <= 1)) {
                throw new IllegalArgumentException("probeJitter: " + probeJitter + " (expected: 0 to 1)");
            }
            return new AdaptiveConcurrencyOptions(this);
        }
    }
}
