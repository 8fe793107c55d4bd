package io.parry.server.routing.internal;

/**
 * Build-time checks that every route can be chosen: routes with the same method and path shape are
 * tried in the order they were declared, so one that takes every request a later one would hides it.
 */
final class RouteLint {
    private RouteLint() {}

    /**
     * Checks a route against an earlier one with the same method and path shape.
     *
     * @throws IllegalStateException naming both routes
     */
    static void check(RouteEntry earlier, RouteEntry later) {
        if (earlier.sameConditions(later)) {
            throw new IllegalStateException("duplicate route: " + later + " (same method, path and conditions as "
                    + earlier + "; expected: one route for each)");
        }
        if (earlier.covers(later)) {
            throw new IllegalStateException("shadowed route: " + later + " can never be chosen, because " + earlier
                    + ", declared before it, takes every request it would (expected: the more specific route first)");
        }
    }

    /** A mount takes every method below its prefix, so a catch-all or a second mount there is never reached. */
    static IllegalStateException mountConflict(RouteEntry earlier, RouteEntry later) {
        return new IllegalStateException(
                (earlier.isMount() && later.isMount() ? "duplicate route: " : "shadowed route: ") + later
                        + " conflicts with " + earlier
                        + " (expected: a mount alone under its prefix, with no catch-all at the same place)");
    }
}
