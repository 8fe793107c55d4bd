package io.parry.server.routing.internal;

import io.parry.http.HttpMethod;
import io.parry.http.MediaType;
import io.parry.server.Handler;
import io.parry.server.routing.Route;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A route as the trie holds it: its pattern and conditions, and its handler with its filters, error
 * handlers and scheduling already bound.
 */
public final class RouteEntry {
    /** The method taken, or {@code null} for every method. */
    final HttpMethod method;

    final PathPattern pattern;
    /** A mounted handler: takes every method at its prefix and below, and a router in it matches the rest. */
    final boolean mount;
    /** Takes the pattern's segments and anything below them: a mount, or a pattern ending in {@code /**}. */
    final boolean prefix;

    final List<MediaType> consumes;
    final List<MediaType> produces;
    final Set<Condition> conditions;
    /** The conditions as an array, which a lookup walks without an iterator. */
    final Condition[] conditionArray;

    final Handler handler;
    final boolean unconditional;
    final boolean capturing;
    /** Shared between routes with the same names and positions (set by {@link RouteTable#of} before publication). */
    String[] paramNames;

    int[] paramSegments;
    final int segmentCount;
    final boolean endsWithCatchAll;
    /** What the request log names the route: its name, its pattern, or {@code /prefix/**} for a mount. */
    final String routeName;
    /** Whether {@link #routeName} was given: a mount's prefix is not put before it. */
    final boolean named;

    private final Route route;
    private final String description;

    /**
     * A route; {@code method} is {@code null} for one that takes every method, {@code name} is
     * {@code null} for one the request log names by its pattern, {@code route} describes it (or is
     * {@code null} in tests, where the pattern does).
     */
    public RouteEntry(
            HttpMethod method,
            PathPattern pattern,
            List<MediaType> consumes,
            List<MediaType> produces,
            Set<Condition> conditions,
            Handler handler,
            String name,
            Route route) {
        this(method, pattern, false, consumes, produces, conditions, handler, name, route);
    }

    private RouteEntry(
            HttpMethod method,
            PathPattern pattern,
            boolean mount,
            List<MediaType> consumes,
            List<MediaType> produces,
            Set<Condition> conditions,
            Handler handler,
            String name,
            Route route) {
        this.method = method;
        this.pattern = pattern;
        this.mount = mount;
        this.prefix = mount || pattern.isPrefix();
        this.consumes = List.copyOf(consumes);
        this.produces = List.copyOf(produces);
        this.conditions = Set.copyOf(conditions);
        this.conditionArray = conditions.toArray(new Condition[0]);
        this.handler = handler;
        this.route = route;
        this.description = route == null ? pattern.toString() : route.toString();
        this.unconditional = consumes.isEmpty() && produces.isEmpty() && conditions.isEmpty();
        this.capturing = mount || pattern.paramNames().length > 0;
        this.paramNames = pattern.paramNames();
        this.paramSegments = pattern.paramSegments();
        this.segmentCount = pattern.segments().size();
        this.endsWithCatchAll = pattern.endsWithCatchAll();
        this.named = name != null;
        this.routeName = name != null ? name : mount ? pattern + "/**" : pattern.toString();
    }

    /** A handler mounted at the prefix {@code pattern}, taking every method there and below. */
    public static RouteEntry mount(PathPattern pattern, Handler handler, Route route) {
        return new RouteEntry(null, pattern, true, List.of(), List.of(), Set.of(), handler, null, route);
    }

    /** What the router's route table says of this route. */
    public Route route() {
        return route;
    }

    /** Whether this route takes every method {@code later} takes. */
    boolean takesMethodsOf(RouteEntry later) {
        return method == null || method.equals(later.method);
    }

    /** Whether this route takes every request {@code later} would: {@code later} can never be chosen. */
    boolean covers(RouteEntry later) {
        return takesMethodsOf(later)
                && later.conditions.containsAll(conditions)
                && (consumes.isEmpty() || (!later.consumes.isEmpty() && MediaRanges.covers(consumes, later.consumes)))
                && (produces.isEmpty() || (!later.produces.isEmpty() && MediaRanges.covers(produces, later.produces)));
    }

    /** Whether both routes take the same methods with the same conditions, so neither is more specific. */
    boolean sameConditions(RouteEntry other) {
        return Objects.equals(method, other.method)
                && conditions.equals(other.conditions)
                && Set.copyOf(consumes).equals(Set.copyOf(other.consumes))
                && Set.copyOf(produces).equals(Set.copyOf(other.produces));
    }

    @Override
    public String toString() {
        return description;
    }
}
