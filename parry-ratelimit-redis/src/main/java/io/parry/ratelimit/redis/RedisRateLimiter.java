package io.parry.ratelimit.redis;

import static java.util.Objects.requireNonNull;

import io.netty.util.concurrent.FastThreadLocal;
import io.parry.ratelimit.RateLimit;
import io.parry.ratelimit.RateLimitDecision;
import io.parry.ratelimit.RateLimiter;
import io.parry.ratelimit.RateLimiterUnavailableException;
import io.parry.ratelimit.redis.internal.GcraCommand;
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
 * the request pass, or refuse it with a 503. The event loop never waits: the timeouts of a loop's
 * decisions share one timer on it, and each decision is handed back to it.
 */
public final class RedisRateLimiter implements RateLimiter {
    private static final Logger log = LoggerFactory.getLogger(RedisRateLimiter.class);
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long MIN_HOLD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RedisRateLimitStore store;
    private final RateLimit limit;
    private final String prefix;
    private final long timeoutNanos;
    private final FailurePolicy failurePolicy;
    private final int batch;
    private final long intervalNanos;
    private final String[] one;
    private final String[] many;
    private final FastThreadLocal<ReservedTokens> reserved;
    private final FastThreadLocal<Deadlines> deadlines = new FastThreadLocal<>() {
        @Override
        protected Deadlines initialValue() {
            return new Deadlines();
        }
    };
    private volatile long lastWarning = System.nanoTime() - WARN_EVERY_NANOS;

    private RedisRateLimiter(Builder builder) {
        this.store = builder.store;
        this.limit = builder.limit;
        this.prefix = builder.prefix;
        this.timeoutNanos = builder.timeout.toNanos();
        this.failurePolicy = builder.failurePolicy;
        this.batch = builder.batch;
        long intervalMicros = limit.intervalNanos() / 1000;
        long capacityMicros = Math.max(intervalMicros, limit.capacityNanos() / 1000);
        this.intervalNanos = intervalMicros * 1000;
        this.one = new String[] {Long.toString(intervalMicros), Long.toString(capacityMicros), "1"};
        this.many = new String[] {one[0], one[1], Integer.toString(batch)};
        this.reserved = batch > 1
                ? new FastThreadLocal<>() {
                    @Override
                    protected ReservedTokens initialValue() {
                        return new ReservedTokens();
                    }
                }
                : null;
    }

    /** A builder for a limiter on this store. */
    public static Builder builder(RedisRateLimitStore store, RateLimit limit) {
        return new Builder(requireNonNull(store, "store"), requireNonNull(limit, "limit"));
    }

    @Override
    public RateLimit limit() {
        return limit;
    }

    /**
     * Completes on the request's event loop, within the timeout; at once, without Redis, while this
     * loop holds tokens reserved for the key.
     */
    @Override
    public CompletionStage<RateLimitDecision> acquire(RequestContext ctx, String key) {
        ScheduledExecutorService loop = ctx.eventLoop();
        boolean onLoop = RedisRateLimitStore.onItsThread(loop);
        if (reserved == null || !onLoop) {
            Decision decision = new Decision(key, loop, null);
            decision.ask(one, onLoop);
            return decision;
        }
        ReservedTokens.Bucket bucket = reserved.get().bucket(key);
        RateLimitDecision now = bucket.take(System.nanoTime());
        if (now != null) {
            return CompletableFuture.completedFuture(now);
        }
        CompletableFuture<RateLimitDecision> decision = new CompletableFuture<>();
        if (bucket.await(decision)) {
            new Decision(key, loop, bucket).ask(many, true);
        }
        return decision;
    }

    @Override
    public String toString() {
        return "RedisRateLimiter{" + limit + ", prefix=" + prefix + ", store=" + store + "}";
    }

    private static RateLimitDecision refused(long[] reply) {
        return new RateLimitDecision(false, 0, reply[2] * 1000, reply[3] * 1000);
    }

    /** The tokens of one reservation, handed to the requests that waited for it, then kept for others. */
    private void reservedMore(Decision call, long[] reply) {
        long granted = reply[0];
        if (granted <= 0) {
            call.reserved.answerAll(refused(reply), null);
            return;
        }
        // Kept for the time they took to accrue (so that this instance spends them no faster than the
        // rate), but at least a second: at high rates that time is shorter than the round trip that
        // fetched them, and every request would ask Redis again.
        long holdNanos = Math.max(MIN_HOLD_NANOS, granted * intervalNanos);
        if (call.reserved.granted(granted, reply[1], reply[3] * 1000, System.nanoTime() + holdNanos)) {
            new Decision(call.key, call.loop, call.reserved).ask(many, true);
        }
    }

    private void fail(Decision call, Throwable failure) {
        warn(failure);
        RateLimitDecision open = failurePolicy == FailurePolicy.OPEN ? RateLimitDecision.allowedUnknown() : null;
        Throwable closed = open == null ? new RateLimiterUnavailableException(failure) : null;
        if (call.reserved != null) {
            call.reserved.answerAll(open, closed);
        } else if (open != null) {
            call.complete(open);
        } else {
            call.completeExceptionally(closed);
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
     * One script run: a request's own decision, or a reservation of tokens for the requests of a loop
     * waiting in {@code reserved}. Its timer and the script's reply both run on the request's loop (after
     * {@code NOSCRIPT}, once more by {@code EVAL}); whichever comes first decides.
     */
    private final class Decision extends CompletableFuture<RateLimitDecision>
            implements GcraCommand.Reply, Deadlines.Waiting, Runnable {
        private final String key;
        private final String bucket;
        private final ScheduledExecutorService loop;
        private final ReservedTokens.Bucket reserved;
        private String[] args;
        private ScheduledFuture<?> timer;
        private long deadline;
        private boolean reloaded;
        private boolean over;

        Decision(String key, ScheduledExecutorService loop, ReservedTokens.Bucket reserved) {
            this.key = key;
            this.bucket = prefix + key;
            this.loop = loop;
            this.reserved = reserved;
        }

        /** Sends the script; on the loop's thread, its timeout is watched with the others of the loop. */
        void ask(String[] args, boolean onLoop) {
            this.args = args;
            if (onLoop) {
                deadline = System.nanoTime() + timeoutNanos;
                deadlines.get().add(this, loop);
            } else {
                timer = loop.schedule(this, timeoutNanos, TimeUnit.NANOSECONDS);
            }
            store.take(bucket, args, loop, this);
        }

        @Override
        public long deadline() {
            return deadline;
        }

        @Override
        public boolean answered() {
            return over;
        }

        /** Hands the timeout to this request's own view of the loop, which carries its context. */
        @Override
        public void timedOut() {
            loop.execute(this);
        }

        /** The timeout. */
        @Override
        public void run() {
            if (!over) {
                over = true;
                fail(
                        this,
                        new TimeoutException(
                                "Redis did not answer in " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
            }
        }

        @Override
        public void decided(long[] answer) {
            if (timer != null) {
                timer.cancel(false);
            }
            if (over) {
                return;
            }
            over = true;
            if (reserved != null) {
                reservedMore(this, answer);
            } else if (answer[0] <= 0) {
                complete(refused(answer));
            } else {
                complete(new RateLimitDecision(true, answer[1], 0, answer[3] * 1000));
            }
        }

        @Override
        public void failed(Throwable failure) {
            if (!reloaded && RedisRateLimitStore.isNoScript(failure)) {
                reloaded = true;
                store.takeLoading(bucket, args, loop, this);
                return;
            }
            if (timer != null) {
                timer.cancel(false);
            }
            if (!over) {
                over = true;
                fail(this, failure);
            }
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
         * each event loop keeps the tokens it was granted per key, for the time they took to accrue but at
         * least a second, and hands them out without Redis (no command, timer or task); requests that come
         * while a loop's reservation is under way wait for it. Fewer calls to Redis (one per {@code batch}
         * requests), at the price of a limit shared less evenly: an instance may hold up to {@code batch}
         * tokens per key and event loop that others cannot use.
         */
        public Builder batch(int batch) {
            this.batch = batch;
            return this;
        }

        /**
         * The limiter.
         *
         * @throws IllegalArgumentException if the timeout is not positive, the limit grants more than a
         *     token per microsecond, or the batch is not from 1 to the limit's burst
         */
        public RedisRateLimiter build() {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout: " + timeout + " (expected: > 0)");
            }
            if (limit.intervalNanos() < 1000) {
                throw new IllegalArgumentException("limit: " + limit
                        + " (expected: at most one token per microsecond, the resolution of Redis's clock)");
            }
            if (batch < 1 || batch > limit.burst()) {
                throw new IllegalArgumentException(
                        "batch: " + batch + " (expected: 1 to the burst, " + limit.burst() + ")");
            }
            return new RedisRateLimiter(this);
        }
    }
}
