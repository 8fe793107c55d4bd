package io.parry.ratelimit.redis;

import static java.util.Objects.requireNonNull;

import io.parry.ratelimit.RateLimit;
import io.parry.ratelimit.RateLimitDecision;
import io.parry.ratelimit.RateLimiter;
import io.parry.ratelimit.RateLimiterUnavailableException;
import io.parry.ratelimit.redis.internal.GcraCommand;
import io.parry.ratelimit.redis.internal.Reservations;
import io.parry.server.RequestContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link RateLimiter} whose buckets live in Redis, so that every gateway instance on that Redis enforces
 * one limit together. Each decision is one atomic script (GCRA on Redis's own clock) over the store's
 * pipelined connection; with {@link Builder#batch(int) batching}, one round trip reserves several tokens
 * that this instance then hands out alone.
 *
 * <pre>{@code
 * RateLimiter limiter = RedisRateLimiter.builder(redis, RateLimit.perSecond(100))
 *         .prefix("parry:hello:")
 *         .timeout(Duration.ofMillis(50))
 *         .failurePolicy(FailurePolicy.OPEN)
 *         .build();
 * }</pre>
 *
 * <p>When Redis does not answer within the timeout, or is down, the {@link FailurePolicy} decides: let
 * the request pass, or refuse it with a 503. The event loop never waits: the timeout is a timer on it,
 * and the decision is handed back to it.
 */
public final class RedisRateLimiter implements RateLimiter {
    private static final Logger log = LoggerFactory.getLogger(RedisRateLimiter.class);
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final RedisRateLimitStore store;
    private final RateLimit limit;
    private final String prefix;
    private final long timeoutNanos;
    private final FailurePolicy failurePolicy;
    private final int batch;
    private final long intervalMicros;
    private final String[] args;
    private final Reservations reservations;
    private volatile long lastWarning = System.nanoTime() - WARN_EVERY_NANOS;

    private RedisRateLimiter(Builder builder) {
        this.store = builder.store;
        this.limit = builder.limit;
        this.prefix = builder.prefix;
        this.timeoutNanos = builder.timeout.toNanos();
        this.failurePolicy = builder.failurePolicy;
        this.batch = builder.batch;
        this.intervalMicros = Math.max(1, limit.intervalNanos() / 1000);
        long capacityMicros = Math.max(intervalMicros, limit.capacityNanos() / 1000);
        this.args =
                new String[] {Long.toString(intervalMicros), Long.toString(capacityMicros), Integer.toString(batch)};
        this.reservations = batch > 1 ? new Reservations() : null;
    }

    /** A builder for a limiter on this store. */
    public static Builder builder(RedisRateLimitStore store, RateLimit limit) {
        return new Builder(requireNonNull(store, "store"), requireNonNull(limit, "limit"));
    }

    @Override
    public RateLimit limit() {
        return limit;
    }

    /** Completes on the request's event loop, within the timeout. */
    @Override
    public CompletionStage<RateLimitDecision> acquire(RequestContext ctx, String key) {
        if (reservations != null) {
            RateLimitDecision reserved = reservations.take(key, System.nanoTime());
            if (reserved != null) {
                return CompletableFuture.completedFuture(reserved);
            }
        }
        Decision decision = new Decision(key, ctx.eventLoop());
        store.take(decision.bucket, args, decision.loop, decision);
        return decision;
    }

    @Override
    public String toString() {
        return "RedisRateLimiter{" + limit + ", prefix=" + prefix + ", store=" + store + "}";
    }

    private RateLimitDecision decided(String key, long[] reply) {
        long granted = reply[0];
        long remaining = reply[1];
        long retryAfterNanos = reply[2] * 1000;
        long resetNanos = reply[3] * 1000;
        if (granted <= 0) {
            return new RateLimitDecision(false, 0, retryAfterNanos, resetNanos);
        }
        if (granted > 1 && reservations != null) {
            // The extra tokens are this instance's for the time they took to accrue, then given up.
            reservations.put(
                    key, granted - 1, remaining, resetNanos, System.nanoTime() + (granted - 1) * intervalMicros * 1000);
        }
        return new RateLimitDecision(true, remaining + granted - 1, 0, resetNanos);
    }

    private void fail(CompletableFuture<RateLimitDecision> decision, Throwable failure) {
        if (decision.isDone()) {
            return;
        }
        warn(failure);
        if (failurePolicy == FailurePolicy.OPEN) {
            decision.complete(RateLimitDecision.allowedUnknown());
        } else {
            decision.completeExceptionally(new RateLimiterUnavailableException(failure));
        }
    }

    /** One line every ten seconds at most: a Redis outage must not flood the log with one line per request. */
    private void warn(Throwable failure) {
        long now = System.nanoTime();
        long last = lastWarning;
        if (now - last >= WARN_EVERY_NANOS) {
            lastWarning = now;
            log.warn(
                    "Rate limiter on {} cannot decide ({}); requests are {} while it lasts",
                    store,
                    failure.toString(),
                    failurePolicy == FailurePolicy.OPEN ? "let through" : "refused with 503");
        }
    }

    /**
     * One request's decision: its timer on the request's loop, and the script's reply, also on that loop
     * (after {@code NOSCRIPT}, once more by {@code EVAL}).
     */
    private final class Decision extends CompletableFuture<RateLimitDecision> implements GcraCommand.Reply, Runnable {
        private final String key;
        private final String bucket;
        private final ScheduledExecutorService loop;
        private final ScheduledFuture<?> timer;
        private boolean reloaded;

        Decision(String key, ScheduledExecutorService loop) {
            this.key = key;
            this.bucket = prefix + key;
            this.loop = loop;
            this.timer = loop.schedule(this, timeoutNanos, TimeUnit.NANOSECONDS);
        }

        /** The timeout. */
        @Override
        public void run() {
            fail(
                    this,
                    new TimeoutException(
                            "Redis did not answer in " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
        }

        @Override
        public void decided(long[] answer) {
            timer.cancel(false);
            if (!isDone()) {
                complete(RedisRateLimiter.this.decided(key, answer));
            }
        }

        @Override
        public void failed(Throwable failure) {
            if (!reloaded && RedisRateLimitStore.isNoScript(failure)) {
                reloaded = true;
                store.takeLoading(bucket, args, loop, this);
                return;
            }
            timer.cancel(false);
            fail(this, failure);
        }
    }

    /** Builds a {@link RedisRateLimiter}; not thread-safe. */
    public static final class Builder {
        private final RedisRateLimitStore store;
        private final RateLimit limit;
        private String prefix = "parry:ratelimit:";
        private Duration timeout = Duration.ofMillis(50);
        private FailurePolicy failurePolicy = FailurePolicy.OPEN;
        private int batch = 1;

        private Builder(RedisRateLimitStore store, RateLimit limit) {
            this.store = store;
            this.limit = limit;
        }

        /**
         * Sets what the Redis keys of this limiter's buckets start with (default {@code parry:ratelimit:}):
         * limiters on one Redis with different limits need different prefixes; instances that share a limit
         * need the same.
         */
        public Builder prefix(String prefix) {
            this.prefix = requireNonNull(prefix, "prefix");
            return this;
        }

        /** Sets how long a decision may wait for Redis before the failure policy decides (default 50 ms). */
        public Builder timeout(Duration timeout) {
            this.timeout = requireNonNull(timeout, "timeout");
            return this;
        }

        /** Sets what happens when Redis is slow or down (default {@link FailurePolicy#OPEN}). */
        public Builder failurePolicy(FailurePolicy failurePolicy) {
            this.failurePolicy = requireNonNull(failurePolicy, "failurePolicy");
            return this;
        }

        /**
         * Sets how many tokens one round trip asks for (default 1: every request asks Redis). With more,
         * this instance keeps the extra tokens for the time they took to accrue and hands them out without
         * a round trip: fewer calls to Redis, at the price of a limit shared less evenly between instances.
         */
        public Builder batch(int batch) {
            this.batch = batch;
            return this;
        }

        /**
         * The limiter.
         *
         * @throws IllegalArgumentException if the timeout is not positive, or the batch not from 1 to the
         *     limit's burst
         */
        public RedisRateLimiter build() {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout: " + timeout + " (expected: > 0)");
            }
            if (batch < 1 || batch > limit.burst()) {
                throw new IllegalArgumentException(
                        "batch: " + batch + " (expected: 1 to the burst, " + limit.burst() + ")");
            }
            return new RedisRateLimiter(this);
        }
    }
}
