package io.parry.gateway.internal.config;

/**
 * What every route gets unless it says otherwise (YAML {@code defaults}), and the file-wide settings a
 * route's own sections are checked against.
 *
 * @param protection the IP rules, CORS, authentication and security fields of a route without its own
 * @param rateLimit the rate limit of a route without {@code rateLimit}, or {@code null}
 * @param redis the file's {@code redis}, or {@code null}: a route's {@code store: redis} needs it
 */
record RouteDefaults(RouteProtection protection, RateLimitConfig rateLimit, RedisConfig redis) {}
