package io.parry.gateway.internal.config;

import io.parry.server.Priority;

/**
 * One route (an entry of YAML {@code routes}): which requests it takes, what protects it and what it
 * does with them.
 *
 * @param name the route's name, unique in the file; {@code route-<n>} (1-based position) when not given
 * @param match which requests the route takes
 * @param action what it does: proxy, respond or redirect
 * @param protection its IP rules, CORS, authentication and security fields, the file's defaults included
 * @param rateLimit the route's rate limit (its own, or the one under {@code defaults}), or {@code null} for none
 * @param priority how early the file's {@code overload} thresholds shed the route's requests
 */
public record RouteConfig(
        String name,
        MatchConfig match,
        RouteAction action,
        RouteProtection protection,
        RateLimitConfig rateLimit,
        Priority priority) {

    /** A route of normal priority. */
    public RouteConfig(
            String name, MatchConfig match, RouteAction action, RouteProtection protection, RateLimitConfig rateLimit) {
        this(name, match, action, protection, rateLimit, Priority.NORMAL);
    }

    /** A route without protection or rate limit. */
    public RouteConfig(String name, MatchConfig match, RouteAction action) {
        this(name, match, action, RouteProtection.NONE, null);
    }
}
