package io.parry.server.routing.internal;

import java.util.regex.Pattern;

/**
 * One segment of a route pattern: a literal, a parameter with an optional constraint, or a catch-all.
 *
 * @param kind what the segment is
 * @param text the literal, or the parameter's name
 * @param constraint the regular expression a parameter's segment must match in full, or {@code null}
 */
public record PathSegment(Kind kind, String text, Pattern constraint) {

    /** What a segment matches. */
    public enum Kind {
        LITERAL,
        PARAM,
        CATCH_ALL
    }

    // Interned: routes share their literals' and names' strings, so large tables touch fewer cache lines.

    static PathSegment literal(String text) {
        return new PathSegment(Kind.LITERAL, text.intern(), null);
    }

    static PathSegment param(String name, Pattern constraint) {
        return new PathSegment(Kind.PARAM, name.intern(), constraint);
    }

    static PathSegment catchAll(String name) {
        return new PathSegment(Kind.CATCH_ALL, name.intern(), null);
    }

    /** What decides which requests the segment takes: parameter names do not, constraints do. */
    String shapeKey() {
        switch (kind) {
            case LITERAL:
                return text;
            case PARAM:
                return constraint == null ? "" : constraint.pattern();
            default:
                return "*";
        }
    }

    @Override
    public String toString() {
        switch (kind) {
            case LITERAL:
                return text;
            case PARAM:
                return constraint == null ? "{" + text + "}" : "{" + text + ":" + constraint.pattern() + "}";
            default:
                return "{*" + text + "}";
        }
    }
}
