package io.parry.server.routing.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A parsed route pattern such as {@code /todos/{id:\d+}/files/{*path}}: a list of segments, each a
 * literal, a parameter (optionally constrained by a regular expression for that segment alone) or a
 * trailing catch-all. The path {@code /} is one empty literal segment, as a trailing slash is. A
 * pattern ending in {@code /**} is a prefix: its segments, then anything or nothing.
 */
public final class PathPattern {
    private static final String EXPECTED =
            "expected: /literal, /{name}, /{name:regex} or a trailing /{*name}, names [A-Za-z_][A-Za-z0-9_]*";

    private static final String ANY_REST = "/**";

    private final String text;
    private final List<PathSegment> segments;
    private final boolean prefix;
    private final String[] paramNames;
    private final int[] paramSegments;

    private PathPattern(String text, List<PathSegment> segments, boolean prefix) {
        this.text = text;
        this.segments = List.copyOf(segments);
        this.prefix = prefix;
        List<String> names = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            if (segments.get(i).kind() != PathSegment.Kind.LITERAL) {
                names.add(segments.get(i).text());
                indexes.add(i);
            }
        }
        this.paramNames = names.toArray(new String[0]);
        this.paramSegments = indexes.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Parses a route pattern.
     *
     * @throws IllegalArgumentException naming the pattern and what was expected
     */
    public static PathPattern parse(String pattern) {
        if (!pattern.endsWith(ANY_REST)) {
            return parse(pattern, true);
        }
        String segments = pattern.substring(0, pattern.length() - ANY_REST.length());
        if (segments.endsWith("/")) {
            throw invalid(pattern, "expected: /** after a segment, as in /api/**, or alone");
        }
        PathPattern base = segments.isEmpty() ? parsePrefix("") : parse(segments, false);
        return new PathPattern(pattern, base.segments, true);
    }

    /**
     * Parses a group or mount prefix: a pattern without a catch-all and without a trailing slash;
     * {@code /} (or the empty string) is the prefix with no segments.
     */
    public static PathPattern parsePrefix(String prefix) {
        if (prefix.isEmpty() || prefix.equals("/")) {
            return new PathPattern("", List.of(), false);
        }
        if (prefix.endsWith("/")) {
            throw new IllegalArgumentException("prefix: " + prefix + " (expected: no trailing slash)");
        }
        return parse(prefix, false);
    }

    /** The text of a route pattern declared under a prefix; {@code /} under a prefix is the prefix itself. */
    public static String join(String prefix, String pattern) {
        if (prefix.isEmpty() || prefix.equals("/")) {
            return pattern;
        }
        return pattern.equals("/") ? prefix : prefix + pattern;
    }

    private static PathPattern parse(String pattern, boolean catchAllAllowed) {
        if (pattern.isEmpty() || pattern.charAt(0) != '/') {
            throw invalid(pattern, "expected: a pattern that starts with /");
        }
        List<PathSegment> segments = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int start = 1;
        while (true) {
            int end = segmentEnd(pattern, start);
            PathSegment segment = segment(pattern, pattern.substring(start, end));
            if (segment.kind() != PathSegment.Kind.LITERAL && !names.add(segment.text())) {
                throw invalid(pattern, "expected: each parameter name once, but " + segment.text() + " repeats");
            }
            if (segment.kind() == PathSegment.Kind.CATCH_ALL && (!catchAllAllowed || end != pattern.length())) {
                throw invalid(
                        pattern, "expected: a catch-all {*" + segment.text() + "} only as a route's last segment");
            }
            if (segment.kind() == PathSegment.Kind.LITERAL && segment.text().isEmpty() && end != pattern.length()) {
                throw invalid(pattern, "expected: no empty segment (//)");
            }
            segments.add(segment);
            if (end == pattern.length()) {
                break;
            }
            start = end + 1;
        }
        return new PathPattern(pattern, segments, false);
    }

    /** The end of the segment that starts at {@code start}: the next / outside braces, or the end. */
    private static int segmentEnd(String pattern, int start) {
        int depth = 0;
        for (int i = start; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == '/' && depth == 0) {
                return i;
            }
        }
        if (depth != 0) {
            throw invalid(pattern, EXPECTED);
        }
        return pattern.length();
    }

    private static PathSegment segment(String pattern, String text) {
        boolean braced = !text.isEmpty() && text.charAt(0) == '{';
        if (text.equals("**")) {
            throw invalid(pattern, "expected: ** only as a pattern's end, /**");
        }
        if (!braced && text.indexOf('{') < 0 && text.indexOf('}') < 0) {
            return PathSegment.literal(literal(pattern, text));
        }
        if (!braced || text.charAt(text.length() - 1) != '}') {
            throw invalid(pattern, "expected: a parameter to fill a whole segment, as in /a/{id}");
        }
        String body = text.substring(1, text.length() - 1);
        if (body.startsWith("*")) {
            return PathSegment.catchAll(name(pattern, body.substring(1)));
        }
        int colon = body.indexOf(':');
        if (colon < 0) {
            return PathSegment.param(name(pattern, body), null);
        }
        String name = name(pattern, body.substring(0, colon));
        String regex = body.substring(colon + 1);
        if (regex.isEmpty()) {
            throw invalid(pattern, "expected: a regular expression after {" + name + ":");
        }
        try {
            return PathSegment.param(name, Pattern.compile(regex));
        } catch (PatternSyntaxException e) {
            throw invalid(pattern, "expected: a valid regular expression in {" + name + ":...}: " + e.getDescription());
        }
    }

    private static String name(String pattern, String name) {
        boolean valid = !name.isEmpty() && !Character.isDigit(name.charAt(0));
        for (int i = 0; i < name.length() && valid; i++) {
            char c = name.charAt(i);
            valid = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        }
        if (!valid) {
            throw invalid(pattern, EXPECTED);
        }
        return name;
    }

    /**
     * Checks a literal (RFC 3986 pchars) and normalises it as request paths are: escapes of
     * unreserved characters decoded ({@code %7E} is {@code ~}), other escapes in upper case.
     */
    private static String literal(String pattern, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%') {
                if (i + 2 >= text.length() || !isHex(text.charAt(i + 1)) || !isHex(text.charAt(i + 2))) {
                    throw invalid(pattern, "expected: % followed by two hex digits");
                }
                i += 2;
            } else if (!isPathChar(c)) {
                throw invalid(pattern, EXPECTED + "; '" + c + "' must be percent-encoded in a literal");
            }
        }
        String normalised = text.indexOf('%') < 0 ? text : normaliseEscapes(text);
        if (normalised.equals(".") || normalised.equals("..")) {
            throw invalid(pattern, "expected: no dot-segments; requests never contain them");
        }
        return normalised;
    }

    private static String normaliseEscapes(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            char decoded = (char) Integer.parseInt(text.substring(i + 1, i + 3), 16);
            if (isUnreserved(decoded)) {
                out.append(decoded);
            } else {
                out.append('%').append(text.substring(i + 1, i + 3).toUpperCase(Locale.ROOT));
            }
            i += 2;
        }
        return out.toString();
    }

    private static boolean isUnreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0;
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean isPathChar(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || "-._~!$&'()*+,;=:@".indexOf(c) >= 0;
    }

    private static IllegalArgumentException invalid(String pattern, String expected) {
        return new IllegalArgumentException("pattern: " + pattern + " (" + expected + ")");
    }

    /** The segments in order. */
    public List<PathSegment> segments() {
        return segments;
    }

    /** Whether the pattern ends in {@code /**}: it takes its segments and anything below them. */
    public boolean isPrefix() {
        return prefix;
    }

    /** Whether the last segment is a catch-all. */
    public boolean endsWithCatchAll() {
        return !segments.isEmpty() && segments.get(segments.size() - 1).kind() == PathSegment.Kind.CATCH_ALL;
    }

    /** The names of the parameters and the catch-all, in order. */
    String[] paramNames() {
        return paramNames;
    }

    /** The segment index of each parameter. */
    int[] paramSegments() {
        return paramSegments;
    }

    /** The pattern as written. */
    @Override
    public String toString() {
        return text;
    }
}
