package io.parry.annotations.spi;

import io.parry.server.Filter;
import io.parry.server.routing.RouteSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The filters an application puts around every route of a generated controller; for generated code, not an API. */
public final class RouteFilters {
    private RouteFilters() {}

    /** The route with these filters added, the first outermost. */
    public static RouteSpec around(RouteSpec route, List<Filter> filters) {
        for (Filter filter : filters) {
            route.filter(filter);
        }
        return route;
    }

    /**
     * The filter given by this name, for the route of this method.
     *
     * @throws IllegalStateException if none was given by that name
     */
    public static Filter named(Map<String, Filter> filters, String name, String method) {
        Filter filter = filters.get(name);
        if (filter == null) {
            throw new IllegalStateException("filter: " + name + " of " + method
                    + " (expected: given with ControllerRoutes.named, one of " + filters.keySet() + ")");
        }
        return filter;
    }

    /** The filters, then these, as one immutable list. */
    public static List<Filter> plus(List<Filter> filters, Filter... more) {
        List<Filter> all = new ArrayList<>(filters);
        all.addAll(List.of(more));
        return List.copyOf(all);
    }
}
