package io.parry.ratelimit.redis;

/** What a {@link RedisRateLimiter} does with a request when Redis does not answer in time or is down. */
public enum FailurePolicy {
    /** Let the request pass, without {@code RateLimit} fields: availability before the limit. */
    OPEN,
    /** Refuse it with {@code 503 Service Unavailable} and {@code Retry-After: 1}: the limit before availability. */
    CLOSED
}
