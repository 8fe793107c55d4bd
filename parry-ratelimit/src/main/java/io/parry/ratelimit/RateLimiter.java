package io.parry.ratelimit;

import io.parry.server.RequestContext;
import java.util.concurrent.CompletionStage;

/**
 * Decides whether a request may pass a {@link RateLimit}, one bucket per key: {@link LocalRateLimiter}
 * keeps the buckets in this process, {@code parry-ratelimit-redis} shares them between processes.
 *
 * <p>Called on the request's event loop; must not block, and must complete the stage on that loop
 * ({@link RequestContext#eventLoop()}), as the filter goes on to the next handler where the stage
 * completes. A limiter that cannot decide (its store is down) completes the stage as its failure policy
 * says: allowed with {@link RateLimitDecision#allowedUnknown()}, or failed with a {@link
 * RateLimiterUnavailableException} (a 503).
 */
public interface RateLimiter {

    /** The limit every bucket of this limiter follows. */
    RateLimit limit();

    /**
     * Takes a token from the key's bucket, if there is one.
     *
     * @param ctx the request's context: its event loop runs timers and continuations
     * @param key the bucket, as a {@link RateLimitKey} made it
     */
    CompletionStage<RateLimitDecision> acquire(RequestContext ctx, String key);
}
