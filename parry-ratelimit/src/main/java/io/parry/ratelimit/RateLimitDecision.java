package io.parry.ratelimit;

/**
 * What a {@link RateLimiter} decided for one request: whether it may pass, and what the client is told
 * about its quota.
 *
 * @param allowed whether the request took a token
 * @param remaining tokens left after this request, or -1 when the limiter does not know (a shared
 *     limiter that could not be asked and let the request pass)
 * @param retryAfterNanos for a refused request, how long until a token is free; 0 when allowed
 * @param resetNanos how long until the bucket is full again
 */
public record RateLimitDecision(boolean allowed, long remaining, long retryAfterNanos, long resetNanos) {
    private static final RateLimitDecision UNKNOWN = new RateLimitDecision(true, -1, 0, 0);

    /** An allowed request about whose quota nothing is known: sent without {@code RateLimit} fields. */
    public static RateLimitDecision allowedUnknown() {
        return UNKNOWN;
    }

    /** Whether the limiter knew the quota when it decided. */
    public boolean known() {
        return remaining >= 0;
    }
}
