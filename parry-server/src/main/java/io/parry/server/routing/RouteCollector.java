package io.parry.server.routing;

import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.routing.internal.PathPattern;
import io.parry.server.routing.internal.RouteEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Flattens a builder and its groups into trie entries in declaration order, binding each route's
 * scheduling, filters and error handlers (route first, then its groups from the innermost out), so no
 * request ever decides whether a filter applies.
 */
final class RouteCollector {
    private final Map<String, Executor> executors;
    private final List<RouteEntry> entries;
    private final List<Route> routes;
    private final List<Filter> routerFilters;

    /** {@code routerFilters} are the router's own, which {@link Router.Builder#build} puts around everything. */
    RouteCollector(
            Map<String, Executor> executors, List<RouteEntry> entries, List<Route> routes, List<Filter> routerFilters) {
        this.executors = executors;
        this.entries = entries;
        this.routes = routes;
        this.routerFilters = routerFilters;
    }

    /** Collects the builder's items; {@code groups} are the enclosing groups, outermost first, this one included. */
    void collect(Router.Builder builder, String prefix, List<Router.Builder> groups) {
        for (Object item : builder.items()) {
            if (item instanceof RouteDeclaration) {
                add((RouteDeclaration) item, prefix, groups);
            } else if (item instanceof MountDeclaration) {
                mount((MountDeclaration) item, prefix, groups);
            } else {
                Router.Builder group = (Router.Builder) item;
                List<Router.Builder> inner = new ArrayList<>(groups);
                inner.add(group);
                collect(group, PathPattern.join(prefix, group.prefix()), inner);
            }
        }
    }

    private void add(RouteDeclaration declaration, String prefix, List<Router.Builder> groups) {
        RouteSpec spec = declaration.spec();
        PathPattern pattern = PathPattern.parse(PathPattern.join(prefix, declaration.pattern()));
        Handler handler = Router.Builder.schedule(declaration.handler(), spec, executors);
        handler = inGroups(Router.Builder.wrap(handler, spec.filters(), spec.errorHandler()), groups);
        List<String> conditions = new ArrayList<>();
        spec.conditions().forEach(condition -> conditions.add(condition.toString()));
        List<Filter> filters = around(groups);
        filters.addAll(spec.filters());
        Route route = new Route(
                spec.name(),
                declaration.method() == null ? "*" : declaration.method().name(),
                pattern.toString(),
                spec.consumes(),
                spec.produces(),
                conditions,
                spec.scheduling(),
                filters);
        routes.add(route);
        entries.add(new RouteEntry(
                declaration.method(),
                pattern,
                spec.consumes(),
                spec.produces(),
                spec.conditions(),
                handler,
                spec.name(),
                route));
    }

    private void mount(MountDeclaration declaration, String prefix, List<Router.Builder> groups) {
        String joined = PathPattern.join(prefix, declaration.prefix());
        String full = joined.equals("/") ? "" : joined;
        PathPattern pattern = PathPattern.parsePrefix(full);
        Handler handler = inGroups(declaration.handler(), groups);
        List<Filter> outer = around(groups);
        Route mountRoute = new Route(null, "*", full + "/**", List.of(), List.of(), List.of(), "event-loop", outer);
        if (declaration.handler() instanceof Router) {
            for (Route route : ((Router) declaration.handler()).routes()) {
                routes.add(route.under(full, outer));
            }
        } else {
            routes.add(mountRoute);
        }
        entries.add(RouteEntry.mount(pattern, handler, mountRoute));
    }

    /** The router's filters, then those of these groups, outermost first. */
    private List<Filter> around(List<Router.Builder> groups) {
        List<Filter> filters = new ArrayList<>(routerFilters);
        for (Router.Builder group : groups) {
            filters.addAll(group.filters());
        }
        return filters;
    }

    private static Handler inGroups(Handler handler, List<Router.Builder> groups) {
        Handler wrapped = handler;
        for (int i = groups.size() - 1; i >= 0; i--) {
            Router.Builder group = groups.get(i);
            wrapped = Router.Builder.wrap(wrapped, group.filters(), group.errorHandler());
        }
        return wrapped;
    }
}
