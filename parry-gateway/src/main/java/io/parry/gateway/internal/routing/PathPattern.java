package io.parry.gateway.internal.routing;

import static java.util.Objects.requireNonNull;

import io.parry.server.routing.internal.PercentDecoding;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The path part of a route's match: an exact path ({@code /hello}), a template whose parameters each
 * take one segment ({@code /users/{id}}, and last only a catch-all {@code {*rest}} taking what follows
 * the slash), or a prefix matching whole segments ({@code /api} matches {@code /api} and {@code
 * /api/x}, not {@code /apix}). Paths compare case-sensitively with the request's normalised path.
 */
public final class PathPattern {
    private static final String TEMPLATE_SYNTAX =
            "parameters as {name} or, last only, {*name}, each a whole segment, names [A-Za-z_][A-Za-z0-9_]*";

    /** How a pattern matches. */
    public enum Kind {
        /** The path equals the pattern. */
        EXACT,
        /** The path has the template's literal segments and a segment for each parameter. */
        TEMPLATE,
        /** The path starts with the pattern's segments. */
        PREFIX
    }

    private final Kind kind;
    private final String text;
    private final String[] segments;
    private final String[] paramNames;
    private final boolean endsWithCatchAll;

    private PathPattern(Kind kind, String text, String[] segments, String[] paramNames, boolean endsWithCatchAll) {
        this.kind = kind;
        this.text = text;
        this.segments = segments;
        this.paramNames = paramNames;
        this.endsWithCatchAll = endsWithCatchAll;
    }

    /**
     * An exact path, or a template when it holds a parameter.
     *
     * @throws IllegalArgumentException if the path does not start with {@code /}, holds a query, or a
     *     parameter is malformed
     */
    public static PathPattern path(String path) {
        checkPath("path", path);
        if (path.indexOf('{') < 0 && path.indexOf('}') < 0) {
            return new PathPattern(Kind.EXACT, path, splitSegments(path), new String[0], false);
        }
        return template(path);
    }

    /**
     * A prefix; a trailing slash is ignored, so {@code /api/} is {@code /api}, and {@code /} matches
     * every path.
     *
     * @throws IllegalArgumentException if the prefix does not start with {@code /}, holds a query or a
     *     parameter
     */
    public static PathPattern prefix(String prefix) {
        checkPath("prefix", prefix);
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw invalid("prefix", prefix, "literal segments; use path for a template such as /users/{id}");
        }
        String normalized =
                prefix.length() > 1 && prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        return new PathPattern(Kind.PREFIX, normalized, splitSegments(normalized), new String[0], false);
    }

    /** How the pattern matches. */
    public Kind kind() {
        return kind;
    }

    /** The pattern as written (a prefix without its trailing slash). */
    public String text() {
        return text;
    }

    /** The names of a template's parameters, in order; empty for other kinds. */
    public List<String> paramNames() {
        return List.of(paramNames);
    }

    /**
     * The decoded parameters of a path this template matched; a catch-all keeps {@code %2F} encoded.
     * Empty for other kinds.
     */
    public Map<String, String> params(String path) {
        if (paramNames.length == 0) {
            return Map.of();
        }
        Map<String, String> params = new HashMap<>(paramNames.length * 2);
        int pos = 0;
        int param = 0;
        for (int segment = 0; segment < segments.length; segment++) {
            int from = pos + 1;
            if (endsWithCatchAll && segment == segments.length - 1) {
                params.put(paramNames[param], PercentDecoding.decode(path, from, path.length(), true));
                break;
            }
            int to = path.indexOf('/', from);
            if (to < 0) {
                to = path.length();
            }
            if (segments[segment] == null) {
                params.put(paramNames[param++], PercentDecoding.decode(path, from, to, false));
            }
            pos = to;
        }
        return params;
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + " " + text;
    }

    /** The segments after the leading slash; {@code null} for a parameter. */
    String[] segments() {
        return segments;
    }

    /** Whether the last segment is a catch-all. */
    boolean endsWithCatchAll() {
        return endsWithCatchAll;
    }

    private static PathPattern template(String template) {
        String[] raw = splitSegments(template);
        String[] segments = new String[raw.length];
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        boolean catchAll = false;
        for (int i = 0; i < raw.length; i++) {
            String segment = raw[i];
            boolean hasBrace = segment.indexOf('{') >= 0 || segment.indexOf('}') >= 0;
            if (!hasBrace) {
                segments[i] = segment;
                continue;
            }
            if (segment.length() < 3 || segment.charAt(0) != '{' || segment.charAt(segment.length() - 1) != '}') {
                throw invalid("path", template, TEMPLATE_SYNTAX);
            }
            catchAll = segment.charAt(1) == '*';
            String name = segment.substring(catchAll ? 2 : 1, segment.length() - 1);
            if (!isParameterName(name) || (catchAll && i != raw.length - 1)) {
                throw invalid("path", template, TEMPLATE_SYNTAX);
            }
            if (!seen.add(name)) {
                throw invalid("path", template, "each parameter name once; " + name + " is repeated");
            }
            names.add(name);
        }
        return new PathPattern(Kind.TEMPLATE, template, segments, names.toArray(new String[0]), catchAll);
    }

    private static String[] splitSegments(String path) {
        return path.equals("/") ? new String[0] : path.substring(1).split("/", -1);
    }

    private static void checkPath(String what, String path) {
        requireNonNull(path, what);
        if (!path.startsWith("/")) {
            throw invalid(what, path, "a path starting with /");
        }
        if (path.indexOf('?') >= 0 || path.indexOf('#') >= 0) {
            throw invalid(what, path, "a path without a query or fragment");
        }
    }

    private static boolean isParameterName(String name) {
        if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return true;
    }

    private static IllegalArgumentException invalid(String what, String value, String expected) {
        return new IllegalArgumentException(what + ": " + value + " (expected: " + expected + ")");
    }
}
