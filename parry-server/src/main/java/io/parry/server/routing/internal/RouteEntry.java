package io.parry.server.routing.internal;

import io.parry.http.HttpMethod;
import io.parry.http.MediaType;
import io.parry.server.Handler;
import java.util.List;
import java.util.Set;

/**
 * A route as the trie holds it: its pattern and conditions, and its handler with its filters, error
 * handlers and scheduling already bound.
 */
public final class RouteEntry {
    final HttpMethod method;
    final PathPattern pattern;
    final List<MediaType> consumes;
    final List<MediaType> produces;
    final Set<Condition> conditions;
    final Handler handler;
    final boolean unconditional;
    final boolean capturing;
    /** Shared between routes with the same names and positions (set by {@link RouteTable#of} before publication). */
    String[] paramNames;

    int[] paramSegments;
    final int segmentCount;
    final boolean endsWithCatchAll;
    /** What the request log names the route: its pattern, or {@code /prefix/**} for a mount. */
    final String routeName;

    private final String description;

    /**
     * A route; {@code method} is {@code null} for a mount, which takes every method at its prefix and
     * below.
     */
    public RouteEntry(
            HttpMethod method,
            PathPattern pattern,
            List<MediaType> consumes,
            List<MediaType> produces,
            Set<Condition> conditions,
            Handler handler,
            String description) {
        this.method = method;
        this.pattern = pattern;
        this.consumes = List.copyOf(consumes);
        this.produces = List.copyOf(produces);
        this.conditions = Set.copyOf(conditions);
        this.handler = handler;
        this.description = description;
        this.unconditional = consumes.isEmpty() && produces.isEmpty() && conditions.isEmpty();
        this.capturing = method == null || pattern.paramNames().length > 0;
        this.paramNames = pattern.paramNames();
        this.paramSegments = pattern.paramSegments();
        this.segmentCount = pattern.segments().size();
        this.endsWithCatchAll = pattern.endsWithCatchAll();
        this.routeName = method == null ? pattern + "/**" : pattern.toString();
    }

    boolean isMount() {
        return method == null;
    }

    /** Whether this route takes every request {@code later} would: {@code later} can never be chosen. */
    boolean covers(RouteEntry later) {
        return later.conditions.containsAll(conditions)
                && (consumes.isEmpty() || (!later.consumes.isEmpty() && MediaRanges.covers(consumes, later.consumes)))
                && (produces.isEmpty() || (!later.produces.isEmpty() && MediaRanges.covers(produces, later.produces)));
    }

    /** Whether both routes have the same conditions, so neither is more specific. */
    boolean sameConditions(RouteEntry other) {
        return conditions.equals(other.conditions)
                && Set.copyOf(consumes).equals(Set.copyOf(other.consumes))
                && Set.copyOf(produces).equals(Set.copyOf(other.produces));
    }

    @Override
    public String toString() {
        return description;
    }
}
