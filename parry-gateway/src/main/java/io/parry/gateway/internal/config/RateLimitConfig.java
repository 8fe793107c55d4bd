package io.parry.gateway.internal.config;

import io.parry.ratelimit.RateLimit;
import io.parry.ratelimit.redis.FailurePolicy;
import java.time.Duration;
import java.util.List;

/**
 * A route's rate limit (YAML {@code rateLimit}, or the one under {@code defaults}): the token bucket,
 * what keys it, and where its buckets live. Equal configurations keep their buckets across reloads.
 *
 * @param limit the token bucket: {@code rate} per {@code period}, {@code burst}
 * @param key the parts of the key as written: {@code client_address}, {@code route}, {@code header:<name>} or {@code claim:<name>}
 * @param redis whether the buckets live in the file's {@code redis} (shared), or in this process
 * @param timeout how long a decision waits for Redis (Redis only)
 * @param onFailure what a request gets while Redis is slow or down (Redis only)
 * @param batch tokens one round trip to Redis reserves (Redis only)
 * @param maxKeys buckets kept in this process at most (local only)
 */
public record RateLimitConfig(
        RateLimit limit,
        List<String> key,
        boolean redis,
        Duration timeout,
        FailurePolicy onFailure,
        int batch,
        int maxKeys) {

    /** Copies the key's parts. */
    public RateLimitConfig {
        key = List.copyOf(key);
    }
}
