package io.parry.server.routing.internal;

import io.parry.http.HttpMethod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The routes at one place of the trie (a path, a catch-all or a prefix), collected in declaration
 * order and then compiled into one array per method: the routes of that method and those that take
 * every method, still in declaration order, so a lookup picks an array and never filters.
 */
final class RouteSet {
    private static final RouteEntry[] NONE = new RouteEntry[0];

    private final List<RouteEntry> declared = new ArrayList<>();
    private HttpMethod[] methods = new HttpMethod[0];
    private RouteEntry[][] routes = new RouteEntry[0][];
    /** The routes that take every method: the candidates for a method no route names. */
    private RouteEntry[] anyMethod = NONE;

    /**
     * Adds a route after checking it against the earlier routes here.
     *
     * @throws IllegalStateException naming both routes when it duplicates or is shadowed by one and
     *     the lint is strict
     */
    void add(RouteEntry entry, RouteLint lint) {
        for (RouteEntry earlier : declared) {
            if (earlier.takesMethodsOf(entry)) {
                lint.check(earlier, entry);
            }
        }
        declared.add(entry);
    }

    /**
     * Builds the arrays. {@code HEAD} takes the {@code GET} routes when no route names {@code HEAD}
     * (RFC 9110, section 9.3.2).
     */
    void compile() {
        List<HttpMethod> named = new ArrayList<>();
        for (RouteEntry entry : declared) {
            if (entry.method != null && !named.contains(entry.method)) {
                named.add(entry.method);
            }
        }
        boolean headFromGet = named.contains(HttpMethod.GET) && !named.contains(HttpMethod.HEAD);
        if (headFromGet) {
            named.add(HttpMethod.HEAD);
        }
        methods = named.toArray(new HttpMethod[0]);
        routes = new RouteEntry[methods.length][];
        for (int i = 0; i < methods.length; i++) {
            HttpMethod taken = headFromGet && methods[i].equals(HttpMethod.HEAD) ? HttpMethod.GET : methods[i];
            routes[i] = candidates(taken);
        }
        anyMethod = candidates(null);
    }

    private RouteEntry[] candidates(HttpMethod method) {
        List<RouteEntry> candidates = new ArrayList<>();
        for (RouteEntry entry : declared) {
            if (entry.method == null || entry.method.equals(method)) {
                candidates.add(entry);
            }
        }
        return candidates.isEmpty() ? NONE : candidates.toArray(NONE);
    }

    /** The routes for this method, possibly none; the standard methods compare by identity first. */
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
        return anyMethod;
    }

    void addMethodsTo(Collection<HttpMethod> allowed) {
        for (RouteEntry entry : declared) {
            if (entry.method != null) {
                allowed.add(entry.method);
            }
        }
    }

    /** The only route here when there is one with no conditions, or {@code null}. */
    RouteEntry sole() {
        return declared.size() == 1 && declared.get(0).unconditional ? declared.get(0) : null;
    }

    /** Any one route here, to name in a lint message. */
    RouteEntry any() {
        return declared.get(0);
    }
}
