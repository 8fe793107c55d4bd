package io.parry.annotations.spi;

import io.parry.server.Filter;
import io.parry.server.routing.RouteSpec;
import java.util.ArrayList;
import java.util.List;

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

    /** The filters, then these, as one immutable list. */
    public static List<Filter> plus(List<Filter> filters, Filter... more) {
        List<Filter> all = new ArrayList<>(filters);
        all.addAll(List.of(more));
        return List.copyOf(all);
    }
}
