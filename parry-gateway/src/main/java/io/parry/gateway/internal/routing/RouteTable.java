package io.parry.gateway.internal.routing;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.server.RequestContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The gateway's routes compiled for lookup. The most specific path wins: an exact path, then a
 * template (literal segments before parameters), then the longest prefix; among routes with the same
 * path, the first declared whose conditions hold. When the most specific path has no such route the
 * next one is tried. Immutable and shared by every event loop; a lookup allocates nothing.
 */
public final class RouteTable {
    private static final List<String> METHOD_ORDER = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE");
    private static final RouteTable EMPTY = builder().build();

    private final Map<String, RouteGroup> exact;
    private final TemplateTree templates;
    private final PrefixTree prefixes;
    private final List<GatewayRoute> routes;

    private RouteTable(Builder builder) {
        Map<String, RouteGroup> groups = new HashMap<>();
        builder.exact.forEach((path, routes) -> groups.put(path, new RouteGroup(routes)));
        this.exact = groups;
        this.templates = builder.templates.build();
        this.prefixes = builder.prefixes.build();
        this.routes = List.copyOf(builder.routes);
    }

    /** A table with no routes: every request gets 404. */
    public static RouteTable empty() {
        return EMPTY;
    }

    /** A builder for a table. */
    public static Builder builder() {
        return new Builder();
    }

    /** The route that takes this request, or {@code null}. */
    public GatewayRoute select(HttpRequest request) {
        String path = request.path();
        // Hashing the path is skipped for the common table with no exact routes.
        RouteGroup group = exact.isEmpty() ? null : exact.get(path);
        GatewayRoute route = group == null ? null : group.select(request);
        if (route == null) {
            route = templates.select(path, request);
        }
        if (route == null) {
            route = prefixes.select(path, request);
        }
        return route;
    }

    /**
     * The answer for a request no route takes: 405 with {@code Allow} when routes match its path and
     * its other conditions but not its method, else 404; both as problem+json.
     */
    public HttpResponse miss(RequestContext ctx, HttpRequest request) {
        // A route admitting any method whose other conditions held would have been selected, so
        // every route counted here names its methods.
        Set<HttpMethod> allowed = new LinkedHashSet<>();
        String path = request.path();
        RouteGroup group = exact.get(path);
        if (group != null) {
            group.addAllowedMethods(request, allowed);
        }
        templates.collect(path, g -> g.addAllowedMethods(request, allowed));
        prefixes.collect(path, g -> g.addAllowedMethods(request, allowed));
        if (allowed.isEmpty()) {
            return problem(ctx, request, HttpStatus.NOT_FOUND, "No route matches " + request.path() + ".");
        }
        String allow = allow(allowed);
        return problem(
                        ctx,
                        request,
                        HttpStatus.METHOD_NOT_ALLOWED,
                        request.method() + " is not allowed here; allowed: " + allow + ".")
                .withHeader("allow", allow);
    }

    /** The routes in declaration order. */
    public List<GatewayRoute> routes() {
        return routes;
    }

    private static String allow(Set<HttpMethod> methods) {
        Set<String> names = new LinkedHashSet<>();
        methods.forEach(method -> names.add(method.name()));
        if (names.contains("GET")) {
            names.add("HEAD");
        }
        List<String> ordered = new ArrayList<>(names);
        ordered.sort(Comparator.comparingInt(RouteTable::rank).thenComparing(Comparator.naturalOrder()));
        return String.join(", ", ordered);
    }

    private static int rank(String method) {
        int index = METHOD_ORDER.indexOf(method);
        return index < 0 ? METHOD_ORDER.size() : index;
    }

    private static HttpResponse problem(RequestContext ctx, HttpRequest request, HttpStatus status, String detail) {
        return Problem.of(status)
                .detail(detail)
                .instance(request.path())
                .requestId(ctx.requestId())
                .toResponse();
    }

    /** Collects routes in declaration order; not thread-safe. */
    public static final class Builder {
        private final Map<String, List<GatewayRoute>> exact = new LinkedHashMap<>();
        private final TemplateTree.Builder templates = TemplateTree.builder();
        private final PrefixTree.Builder prefixes = PrefixTree.builder();
        private final List<GatewayRoute> routes = new ArrayList<>();

        private Builder() {}

        /** Adds a route after those added before. */
        public Builder add(GatewayRoute route) {
            requireNonNull(route, "route");
            switch (route.pattern().kind()) {
                case EXACT:
                    exact.computeIfAbsent(route.pattern().text(), path -> new ArrayList<>())
                            .add(route);
                    break;
                case TEMPLATE:
                    templates.add(route);
                    break;
                default:
                    prefixes.add(route);
                    break;
            }
            routes.add(route);
            return this;
        }

        /** The table. */
        public RouteTable build() {
            return new RouteTable(this);
        }
    }
}
