package io.parry.auth;

import static java.util.Objects.requireNonNull;

import io.parry.auth.internal.HashingThreads;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How {@link ApiKeyFilter} and {@link BasicAuthFilter} check secrets: the executor that runs slow
 * hashes (never an event loop), how many checks may run at once (more are refused with 503 at once,
 * so a flood of guesses cannot burn the CPU), and how many verdicts are remembered for how long.
 * Immutable.
 */
public final class SecretOptions {
    private static final SecretOptions DEFAULT = builder().build();

    private final Executor executor;
    private final int maxConcurrentChecks;
    private final int maxCached;
    private final Duration cacheTime;

    private SecretOptions(Builder builder) {
        this.executor = builder.executor;
        this.maxConcurrentChecks = builder.maxConcurrentChecks;
        this.maxCached = builder.maxCached;
        this.cacheTime = builder.cacheTime;
    }

    /** The defaults: a shared pool of a thread per core, {@code 2 x cores} checks at once, 10,000 verdicts for 1 minute. */
    public static SecretOptions ofDefault() {
        return DEFAULT;
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        return new Builder()
                .executor(executor)
                .maxConcurrentChecks(maxConcurrentChecks)
                .maxCached(maxCached)
                .cacheTime(cacheTime);
    }

    /** The executor that checks hashes. */
    public Executor executor() {
        return executor;
    }

    /** How many checks may run at once. */
    public int maxConcurrentChecks() {
        return maxConcurrentChecks;
    }

    /** How many verdicts, good and bad, are remembered. */
    public int maxCached() {
        return maxCached;
    }

    /** How long a verdict is remembered; a removed credential stops working at the latest after this. */
    public Duration cacheTime() {
        return cacheTime;
    }

    SecretChecks checks(Credentials credentials) {
        return new SecretChecks(credentials, executor, maxConcurrentChecks, maxCached, cacheTime.toNanos());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SecretOptions that
                && executor == that.executor
                && maxConcurrentChecks == that.maxConcurrentChecks
                && maxCached == that.maxCached
                && cacheTime.equals(that.cacheTime);
    }

    @Override
    public int hashCode() {
        return Objects.hash(System.identityHashCode(executor), maxConcurrentChecks, maxCached, cacheTime);
    }

    @Override
    public String toString() {
        return "SecretOptions[maxConcurrentChecks=" + maxConcurrentChecks + ", maxCached=" + maxCached + ", cacheTime="
                + cacheTime + "]";
    }

    /** Builds {@link SecretOptions}; {@link #build()} validates. */
    public static final class Builder {
        private Executor executor = HashingThreads.shared();
        private int maxConcurrentChecks = 2 * HashingThreads.threads();
        private int maxCached = 10_000;
        private Duration cacheTime = Duration.ofMinutes(1);

        private Builder() {}

        /** The executor that checks hashes; default a shared pool of a daemon thread per two cores. */
        public Builder executor(Executor executor) {
            this.executor = requireNonNull(executor, "executor");
            return this;
        }

        /** How many checks may run or wait at once; default twice the shared pool's threads (the cores). */
        public Builder maxConcurrentChecks(int checks) {
            this.maxConcurrentChecks = checks;
            return this;
        }

        /** How many verdicts are remembered; default 10,000. */
        public Builder maxCached(int verdicts) {
            this.maxCached = verdicts;
            return this;
        }

        /** How long a verdict is remembered; default 1 minute. */
        public Builder cacheTime(Duration time) {
            this.cacheTime = requireNonNull(time, "time");
            return this;
        }

        /** The options; fails with {@link IllegalArgumentException} naming a wrong one. */
        public SecretOptions build() {
            if (maxConcurrentChecks <= 0) {
                throw new IllegalArgumentException("maxConcurrentChecks: " + maxConcurrentChecks + " (expected: > 0)");
            }
            if (maxCached <= 0) {
                throw new IllegalArgumentException("maxCached: " + maxCached + " (expected: > 0)");
            }
            if (cacheTime.isNegative() || cacheTime.isZero()) {
                throw new IllegalArgumentException("cacheTime: " + cacheTime + " (expected: > 0)");
            }
            return new SecretOptions(this);
        }
    }
}
