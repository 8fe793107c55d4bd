package io.parry.gateway.internal.config;

/**
 * Answer with a redirect (YAML {@code redirect}).
 *
 * @param location the {@code Location}: an absolute URI or a path
 * @param status 301, 302 (the default), 303, 307 or 308
 * @param keepPath whether the request's path after the route's prefix, and its query, are appended to
 *     {@code location} (default false)
 */
public record RedirectAction(String location, int status, boolean keepPath) implements RouteAction {}
