package io.parry.server;

import java.util.Arrays;

/**
 * The worker executor that runs {@link Handler#blocking(BlockingHandler) blocking} handlers. On JDK
 * 21 and later each task gets a virtual thread, at most {@code maxConcurrent} at once; on JDK 17 a
 * pool of {@code maxThreads} platform threads with a queue of {@code queueSize}. Work beyond either
 * bound is refused with 503 at once: an unbounded queue only turns overload into latency.
 */
public final class WorkerOptions {
    private static final WorkerOptions DEFAULTS = builder().build();

    private final boolean virtualThreads;
    private final int maxConcurrent;
    private final int maxThreads;
    private final int queueSize;

    private WorkerOptions(Builder builder) {
        this.virtualThreads = builder.virtualThreads;
        this.maxConcurrent = builder.maxConcurrent;
        this.maxThreads = builder.maxThreads;
        this.queueSize = builder.queueSize;
    }

    /** The defaults: virtual threads when available, 10,000 concurrent tasks; else 64 threads and a queue of 1,000. */
    public static WorkerOptions ofDefault() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder()
                .virtualThreads(virtualThreads)
                .maxConcurrent(maxConcurrent)
                .maxThreads(maxThreads)
                .queueSize(queueSize);
    }

    /** Whether virtual threads are used when the JDK has them. */
    public boolean virtualThreads() {
        return virtualThreads;
    }

    /** The most tasks running at once on virtual threads. */
    public int maxConcurrent() {
        return maxConcurrent;
    }

    /** The platform threads of the pool used without virtual threads. */
    public int maxThreads() {
        return maxThreads;
    }

    /** The tasks that may wait for a platform thread. */
    public int queueSize() {
        return queueSize;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WorkerOptions that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "WorkerOptions{virtualThreads=" + virtualThreads + ", maxConcurrent=" + maxConcurrent + ", maxThreads="
                + maxThreads + ", queueSize=" + queueSize + "}";
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {virtualThreads, maxConcurrent, maxThreads, queueSize};
    }

    /** Builds {@link WorkerOptions}; not thread-safe. */
    public static final class Builder {
        private boolean virtualThreads = true;
        private int maxConcurrent = 10_000;
        private int maxThreads = 64;
        private int queueSize = 1_000;

        private Builder() {}

        /** Whether to use virtual threads when the JDK has them (default true). */
        public Builder virtualThreads(boolean enabled) {
            this.virtualThreads = enabled;
            return this;
        }

        /** Sets the most tasks running at once on virtual threads. */
        public Builder maxConcurrent(int count) {
            this.maxConcurrent = count;
            return this;
        }

        /** Sets the platform threads of the pool. */
        public Builder maxThreads(int count) {
            this.maxThreads = count;
            return this;
        }

        /** Sets the tasks that may wait for a platform thread; 0 hands tasks only to idle threads. */
        public Builder queueSize(int count) {
            this.queueSize = count;
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if a bound is not positive or the queue size is negative
         */
        public WorkerOptions build() {
            Validation.positive("maxConcurrent", maxConcurrent);
            Validation.positive("maxThreads", maxThreads);
            if (queueSize < 0) {
                throw new IllegalArgumentException("queueSize: " + queueSize + " (expected: >= 0)");
            }
            return new WorkerOptions(this);
        }
    }
}
