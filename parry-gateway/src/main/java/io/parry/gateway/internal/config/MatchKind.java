package io.parry.gateway.internal.config;

/** How a route's path is compared with a request's. */
public enum MatchKind {
    /** The path equals the route's, a literal without parameters. */
    EXACT,
    /**
     * The path fits a template of literal segments, {@code {name}} parameters that take one non-empty
     * segment, and a last {@code {*name}} that takes the rest.
     */
    TEMPLATE,
    /** The path starts with the route's at a segment boundary: {@code /api} takes {@code /api} and {@code /api/x}, not {@code /apix}. */
    PREFIX
}
