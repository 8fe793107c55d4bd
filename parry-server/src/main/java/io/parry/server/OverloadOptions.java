package io.parry.server;

import io.netty.util.internal.PlatformDependent;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * When an {@link Overload} sheds new requests: the thresholds of event-loop lag, requests in flight,
 * heap used after garbage collection and direct memory, each off until set.
 *
 * <p>The thresholds are where {@link Priority#NORMAL} routes start to shed; {@link Priority#SHEDDABLE}
 * routes shed earlier and {@link Priority#CRITICAL} ones later, at their own {@link Priority#fraction()
 * fraction} of each threshold. A sampled signal (lag, heap, direct memory) stops shedding only once
 * it falls below {@code recovery} times the level that started it, so the answer does not flap.
 *
 * <p>Defaults: every signal off, {@code retryAfter} 1 second, {@code recovery} 0.8, {@code
 * sampleInterval} 50 ms.
 */
public final class OverloadOptions {
    private static final OverloadOptions OFF = builder().build();

    private final Duration eventLoopLag;
    private final int maxInFlight;
    private final double heap;
    private final long directMemory;
    private final Duration retryAfter;
    private final double recovery;
    private final Duration sampleInterval;

    private OverloadOptions(Builder builder) {
        this.eventLoopLag = builder.eventLoopLag;
        this.maxInFlight = builder.maxInFlight;
        this.heap = builder.heap;
        this.directMemory = builder.directMemory;
        this.retryAfter = builder.retryAfter;
        this.recovery = builder.recovery;
        this.sampleInterval = builder.sampleInterval;
    }

    /** Options with every signal off: nothing is ever shed. */
    public static OverloadOptions off() {
        return OFF;
    }

    /** A builder starting from the defaults (every signal off). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder()
                .eventLoopLag(eventLoopLag)
                .maxInFlight(maxInFlight)
                .heap(heap)
                .directMemory(directMemory)
                .retryAfter(retryAfter)
                .recovery(recovery)
                .sampleInterval(sampleInterval);
    }

    /** Whether any signal is on. */
    public boolean isEnabled() {
        return !eventLoopLag.isZero() || maxInFlight > 0 || heap > 0 || directMemory > 0;
    }

    /** How late a task scheduled on an event loop may run; {@link Duration#ZERO} when off. */
    public Duration eventLoopLag() {
        return eventLoopLag;
    }

    /** The most requests in a shedding filter's handler at once, server-wide; 0 when off. */
    public int maxInFlight() {
        return maxInFlight;
    }

    /** The share of the maximum heap that may stay in use after a garbage collection; 0 when off. */
    public double heap() {
        return heap;
    }

    /** The bytes of direct memory Netty may hold; 0 when off. */
    public long directMemory() {
        return directMemory;
    }

    /** The wait a shed request is told in {@code Retry-After}, in whole seconds rounded up. */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** The share of the level that started shedding a sampled signal must fall below to stop it. */
    public double recovery() {
        return recovery;
    }

    /** How often the lag, heap and direct memory are sampled. */
    public Duration sampleInterval() {
        return sampleInterval;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof OverloadOptions that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "OverloadOptions{eventLoopLag=" + eventLoopLag + ", maxInFlight=" + maxInFlight + ", heap=" + heap
                + ", directMemory=" + directMemory + ", retryAfter=" + retryAfter + ", recovery=" + recovery
                + ", sampleInterval=" + sampleInterval + "}";
    }

    private Object[] values() {
        return new Object[] {eventLoopLag, maxInFlight, heap, directMemory, retryAfter, recovery, sampleInterval};
    }

    /** Builds {@link OverloadOptions}; not thread-safe. */
    public static final class Builder {
        private Duration eventLoopLag = Duration.ZERO;
        private int maxInFlight;
        private double heap;
        private long directMemory;
        private Duration retryAfter = Duration.ofSeconds(1);
        private double recovery = 0.8;
        private Duration sampleInterval = Duration.ofMillis(50);

        private Builder() {}

        /** Sheds when a task on an event loop runs this late (default {@link Duration#ZERO}: off). */
        public Builder eventLoopLag(Duration lag) {
            this.eventLoopLag = lag;
            return this;
        }

        /** Sheds when this many requests are in shedding filters' handlers (default 0: off). */
        public Builder maxInFlight(int requests) {
            this.maxInFlight = requests;
            return this;
        }

        /**
         * Sheds when more than this share (0 to 1) of the maximum heap is in use after a garbage
         * collection (default 0: off).
         */
        public Builder heap(double fraction) {
            this.heap = fraction;
            return this;
        }

        /** Sheds when Netty holds more than this many bytes of direct memory (default 0: off). */
        public Builder directMemory(long bytes) {
            this.directMemory = bytes;
            return this;
        }

        /**
         * Sheds when Netty holds more than this share (0 to 1) of the JVM's maximum direct memory
         * ({@code -XX:MaxDirectMemorySize}, or the maximum heap when not set).
         */
        public Builder directMemoryFraction(double fraction) {
            if (!(fraction > 0 && fraction <= 1)) {
                throw new IllegalArgumentException("directMemoryFraction: " + fraction + " (expected: > 0 and <= 1)");
            }
            this.directMemory = Math.max(1, (long) (PlatformDependent.maxDirectMemory() * fraction));
            return this;
        }

        /** Sets the wait told to shed clients (default 1 second; rounded up to whole seconds). */
        public Builder retryAfter(Duration retryAfter) {
            this.retryAfter = retryAfter;
            return this;
        }

        /** Sets the share of its starting level a signal must fall below to stop shedding (default 0.8). */
        public Builder recovery(double fraction) {
            this.recovery = fraction;
            return this;
        }

        /** Sets how often lag, heap and direct memory are sampled (default 50 ms). */
        public Builder sampleInterval(Duration interval) {
            this.sampleInterval = interval;
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if a value is out of its range
         */
        public OverloadOptions build() {
            Validation.notNegative("eventLoopLag", eventLoopLag);
            if (maxInFlight < 0) {
                throw new IllegalArgumentException("maxInFlight: " + maxInFlight + " (expected: >= 0, 0 disables)");
            }
            if (!(heap >= 0 && heap <= 1)) {
                throw new IllegalArgumentException("heap: " + heap + " (expected: 0 to 1, 0 disables)");
            }
            if (directMemory < 0) {
                throw new IllegalArgumentException("directMemory: " + directMemory + " (expected: >= 0, 0 disables)");
            }
            Objects.requireNonNull(retryAfter, "retryAfter");
            if (retryAfter.isNegative() || retryAfter.isZero()) {
                throw new IllegalArgumentException("retryAfter: " + retryAfter + " (expected: > 0)");
            }
            if (!(recovery > 0 && recovery <= 1)) {
                throw new IllegalArgumentException("recovery: " + recovery + " (expected: > 0 and <= 1)");
            }
            Objects.requireNonNull(sampleInterval, "sampleInterval");
            if (sampleInterval.toMillis() < 1) {
                throw new IllegalArgumentException("sampleInterval: " + sampleInterval + " (expected: >= 1 ms)");
            }
            return new OverloadOptions(this);
        }
    }
}
