package io.parry.gateway.internal.routing;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import java.util.List;
import java.util.Set;

/** The routes that share one path pattern, in declaration order; the first whose conditions hold wins. */
final class RouteGroup {
    private final GatewayRoute[] routes;

    RouteGroup(List<GatewayRoute> routes) {
        this.routes = routes.toArray(new GatewayRoute[0]);
    }

    /** The first route whose conditions the request meets, or {@code null}. */
    GatewayRoute select(HttpRequest request) {
        for (GatewayRoute route : routes) {
            if (route.conditions().matches(request)) {
                return route;
            }
        }
        return null;
    }

    /** Adds the methods of the routes whose host and header conditions the request meets. */
    void addAllowedMethods(HttpRequest request, Set<HttpMethod> allowed) {
        for (GatewayRoute route : routes) {
            if (route.conditions().matchesIgnoringMethod(request)) {
                allowed.addAll(route.conditions().methods());
            }
        }
    }
}
