package io.parry.ratelimit;

import static java.util.Objects.requireNonNull;

import io.parry.ratelimit.internal.TokenBuckets;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

/**
 * A {@link RateLimiter} whose buckets live in this process: exact, and no slower than a map look-up and a
 * compare-and-set per request. Buckets are shared by every event loop; no lock is taken per request.
 *
 * <p>Memory is bounded: at most {@code maxKeys} buckets (default 100,000, about 100 bytes each plus the
 * key) are kept. Past that, full buckets are dropped first (nothing is lost: a new bucket is full), then
 * others, so a flood of distinct keys (spoofed addresses, random API keys) cannot exhaust the heap; a key
 * whose bucket was dropped before it refilled starts again with a full one.
 *
 * <pre>{@code
 * RateLimiter limiter = LocalRateLimiter.of(RateLimit.perSecond(100));
 * router.get("/hello", hello, route -> route.filter(RateLimitFilter.builder(limiter).build()));
 * }</pre>
 */
public final class LocalRateLimiter implements RateLimiter {
    /** Buckets kept by default. */
    public static final int DEFAULT_MAX_KEYS = 100_000;

    private final RateLimit limit;
    private final TokenBuckets buckets;
    private final LongSupplier nanoClock;

    private LocalRateLimiter(RateLimit limit, int maxKeys, LongSupplier nanoClock) {
        this.limit = limit;
        this.buckets = new TokenBuckets(limit, maxKeys);
        this.nanoClock = nanoClock;
    }

    /** A limiter with the default bound on keys. */
    public static LocalRateLimiter of(RateLimit limit) {
        return of(limit, DEFAULT_MAX_KEYS);
    }

    /**
     * A limiter that keeps at most about {@code maxKeys} buckets.
     *
     * @throws IllegalArgumentException if {@code maxKeys} is not positive
     */
    public static LocalRateLimiter of(RateLimit limit, int maxKeys) {
        return of(limit, maxKeys, System::nanoTime);
    }

    /** A limiter on this clock of nanoseconds, as {@link System#nanoTime()}: for tests. */
    static LocalRateLimiter of(RateLimit limit, int maxKeys, LongSupplier nanoClock) {
        requireNonNull(limit, "limit");
        if (maxKeys <= 0) {
            throw new IllegalArgumentException("maxKeys: " + maxKeys + " (expected: > 0)");
        }
        return new LocalRateLimiter(limit, maxKeys, requireNonNull(nanoClock, "nanoClock"));
    }

    @Override
    public RateLimit limit() {
        return limit;
    }

    /** Decides at once: the stage is complete when returned. */
    @Override
    public CompletionStage<RateLimitDecision> acquire(RequestContext ctx, String key) {
        return CompletableFuture.completedFuture(tryAcquire(key));
    }

    /** Takes a token from the key's bucket now; callable from any thread. */
    public RateLimitDecision tryAcquire(String key) {
        return buckets.acquire(requireNonNull(key, "key"), nanoClock.getAsLong());
    }

    /** Buckets held now: at most about {@code maxKeys}. */
    public int keys() {
        return buckets.size();
    }

    @Override
    public String toString() {
        return "LocalRateLimiter{" + limit + "}";
    }
}
