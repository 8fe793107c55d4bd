package io.parry.gateway.internal.config;

/**
 * One route (an entry of YAML {@code routes}): which requests it takes and what it does with them.
 *
 * @param name the route's name, unique in the file; {@code route-<n>} (1-based position) when not given
 * @param match which requests the route takes
 * @param action what it does: proxy, respond or redirect
 */
public record RouteConfig(String name, MatchConfig match, RouteAction action) {}
