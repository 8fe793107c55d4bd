package io.parry.server.routing.internal;

import java.util.function.Consumer;

/**
 * Build-time checks that every route can be chosen: routes at the same place are tried in the order
 * they were declared, so one that takes every request a later one would hides it. A finding fails the
 * build, or goes to a consumer that asked for findings instead.
 */
public final class RouteLint {
    /** Fails the build on the first finding. */
    public static final RouteLint STRICT = new RouteLint(null);

    private final Consumer<String> findings;

    private RouteLint(Consumer<String> findings) {
        this.findings = findings;
    }

    /** A lint that passes each finding, a sentence naming both routes, to the consumer. */
    public static RouteLint reportingTo(Consumer<String> findings) {
        return new RouteLint(findings);
    }

    /**
     * Checks a route against an earlier one at the same place.
     *
     * @throws IllegalStateException naming both routes, unless findings go to a consumer
     */
    void check(RouteEntry earlier, RouteEntry later) {
        if (earlier.sameConditions(later)) {
            report("duplicate route: " + later + " (same method, path and conditions as " + earlier
                    + "; expected: one route for each)");
        } else if (earlier.covers(later)) {
            report("shadowed route: " + later + " can never be chosen, because " + earlier
                    + ", declared before it, takes every request it would (expected: the more specific route first)");
        }
    }

    private void report(String finding) {
        if (findings == null) {
            throw new IllegalStateException(finding);
        }
        findings.accept(finding);
    }

    /** A mount takes every method below its prefix, so a catch-all there is never reached. */
    static IllegalStateException mountConflict(RouteEntry earlier, RouteEntry later) {
        return new IllegalStateException("shadowed route: " + later + " conflicts with " + earlier
                + " (expected: a mount alone under its prefix, with no catch-all at the same place)");
    }
}
