package io.parry.server.routing.internal;

import io.parry.http.HttpMethod;
import java.util.Arrays;
import java.util.Collection;

/** The routes that end at one trie node, grouped by method in the order they were declared. */
final class RouteSet {
    private HttpMethod[] methods = new HttpMethod[0];
    private RouteEntry[][] routes = new RouteEntry[0][];

    /**
     * Adds a route after checking it against the earlier routes of its method here.
     *
     * @throws IllegalStateException naming both routes when it duplicates or is shadowed by one
     */
    void add(RouteEntry entry) {
        for (int i = 0; i < methods.length; i++) {
            if (methods[i].equals(entry.method)) {
                for (RouteEntry earlier : routes[i]) {
                    RouteLint.check(earlier, entry);
                }
                routes[i] = Arrays.copyOf(routes[i], routes[i].length + 1);
                routes[i][routes[i].length - 1] = entry;
                return;
            }
        }
        methods = Arrays.copyOf(methods, methods.length + 1);
        methods[methods.length - 1] = entry.method;
        routes = Arrays.copyOf(routes, routes.length + 1);
        routes[routes.length - 1] = new RouteEntry[] {entry};
    }

    /** The routes for this method, or {@code null}; the standard methods compare by identity first. */
    RouteEntry[] forMethod(HttpMethod method) {
        for (int i = 0; i < methods.length; i++) {
            if (methods[i] == method) {
                return routes[i];
            }
        }
        for (int i = 0; i < methods.length; i++) {
            if (methods[i].equals(method)) {
                return routes[i];
            }
        }
        return null;
    }

    void addMethodsTo(Collection<HttpMethod> allowed) {
        allowed.addAll(Arrays.asList(methods));
    }

    /** The only route here when there is one with no conditions, or {@code null}. */
    RouteEntry sole() {
        return routes.length == 1 && routes[0].length == 1 && routes[0][0].unconditional ? routes[0][0] : null;
    }

    /** Any one route here, to name in a lint message. */
    RouteEntry any() {
        return routes[0][0];
    }
}
