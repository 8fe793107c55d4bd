package io.parry.gateway.internal.config;

/**
 * One route (an entry of YAML {@code routes}): which requests it takes, what protects it and what it
 * does with them.
 *
 * @param name the route's name, unique in the file; {@code route-<n>} (1-based position) when not given
 * @param match which requests the route takes
 * @param action what it does: proxy, respond or redirect
 * @param protection its IP rules, CORS, authentication and security fields, the file's defaults included
 */
public record RouteConfig(String name, MatchConfig match, RouteAction action, RouteProtection protection) {

    /** A route without protection. */
    public RouteConfig(String name, MatchConfig match, RouteAction action) {
        this(name, match, action, RouteProtection.NONE);
    }
}
