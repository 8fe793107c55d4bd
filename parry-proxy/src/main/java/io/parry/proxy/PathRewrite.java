package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How the upstream request's path is made from the incoming one; the query string is kept as it
 * came. Paths compare case-sensitively, and a prefix matches only whole segments: {@code /api}
 * matches {@code /api} and {@code /api/users} but not {@code /apix}. A path the prefix does not
 * match is forwarded unchanged.
 *
 * <pre>{@code
 * PathRewrite.stripPrefix("/api");                  // /api/users?x=1 -> /users?x=1
 * PathRewrite.replacePrefix("/api", "/v2");         // /api/users     -> /v2/users
 * PathRewrite.template("/users/{id}/profile");      // from the route /people/{id}
 * PathRewrite.template("/static/{*path}");          // from the route /files/{*path}
 * }</pre>
 *
 * <p>Immutable and thread-safe; each rewrite is validated when it is made.
 */
public final class PathRewrite {
    private static final PathRewrite NONE = new PathRewrite(Kind.NONE, null, null, null, null, null, null);
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    private static final boolean[] PCHAR = new boolean[128];
    private static final String PARAMETER_SYNTAX = "{name} or {*name}, names [A-Za-z_][A-Za-z0-9_]*";

    static {
        for (char c = '0'; c <= '9'; c++) {
            PCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            PCHAR[c] = true;
            PCHAR[c - 'a' + 'A'] = true;
        }
        for (char c : "-._~!$&'()*+,;=:@".toCharArray()) {
            PCHAR[c] = true;
        }
    }

    /** The kinds of rewrite, one per factory. */
    public enum Kind {
        /** {@link #none()}. */
        NONE,
        /** {@link #stripPrefix(String)}. */
        STRIP_PREFIX,
        /** {@link #replacePrefix(String, String)}. */
        REPLACE_PREFIX,
        /** {@link #template(String)}. */
        TEMPLATE
    }

    private final Kind kind;
    private final String pattern;
    private final String prefix;
    private final String replacement;
    private final String[] literals;
    private final String[] parameters;
    private final boolean[] catchAlls;

    private PathRewrite(
            Kind kind,
            String pattern,
            String prefix,
            String replacement,
            String[] literals,
            String[] parameters,
            boolean[] catchAlls) {
        this.kind = kind;
        this.pattern = pattern;
        this.prefix = prefix;
        this.replacement = replacement;
        this.literals = literals;
        this.parameters = parameters;
        this.catchAlls = catchAlls;
    }

    /** The path as it came. */
    public static PathRewrite none() {
        return NONE;
    }

    /**
     * Removes a leading prefix: with {@code /api}, {@code /api/users?x=1} becomes {@code /users?x=1} and
     * {@code /api} becomes {@code /}. A trailing slash on the prefix is ignored.
     *
     * @throws IllegalArgumentException if the prefix does not start with {@code /} or holds a character
     *     a path cannot
     */
    public static PathRewrite stripPrefix(String prefix) {
        String normalized = prefix("prefix", prefix);
        return new PathRewrite(Kind.STRIP_PREFIX, prefix, normalized, "/", null, null, null);
    }

    /**
     * Replaces a leading prefix: with {@code /api} and {@code /v2}, {@code /api/u} becomes {@code /v2/u}
     * and {@code /api} becomes {@code /v2}. A trailing slash on the prefix is ignored; the prefix
     * {@code /} matches every path, so ({@code /}, {@code /v2}) turns {@code /u} into {@code /v2/u}.
     *
     * @throws IllegalArgumentException if either does not start with {@code /} or holds a character a
     *     path cannot
     */
    public static PathRewrite replacePrefix(String prefix, String replacement) {
        String normalized = prefix("prefix", prefix);
        prefix("replacement", replacement);
        return new PathRewrite(Kind.REPLACE_PREFIX, prefix, normalized, replacement, null, null, null);
    }

    /**
     * A fixed path filled from the route's path parameters: {@code {name}} takes one parameter,
     * percent-encoded so that it stays one segment; {@code {*name}} takes a router catch-all and keeps
     * its slashes. {@code /users/{id}/profile} with {@code id=42} gives {@code /users/42/profile}.
     *
     * @throws IllegalArgumentException if the template does not start with {@code /}, holds a query or
     *     a character a path cannot, or a parameter is not {@code {name}} or {@code {*name}}
     */
    public static PathRewrite template(String template) {
        requireNonNull(template, "template");
        if (!template.startsWith("/")) {
            throw invalid("template", template, "a path starting with / such as /users/{id}");
        }
        List<String> literals = new ArrayList<>();
        List<String> parameters = new ArrayList<>();
        List<Boolean> catchAlls = new ArrayList<>();
        int literalStart = 0;
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '{') {
                int close = template.indexOf('}', i);
                boolean catchAll = close > i + 1 && template.charAt(i + 1) == '*';
                String name = close < 0 ? "" : template.substring(i + (catchAll ? 2 : 1), close);
                if (!isParameterName(name)) {
                    throw invalid("template", template, "parameters as " + PARAMETER_SYNTAX);
                }
                literals.add(template.substring(literalStart, i));
                parameters.add(name);
                catchAlls.add(catchAll);
                i = close + 1;
                literalStart = i;
            } else {
                checkPathCharacter("template", template, i);
                i += c == '%' ? 3 : 1;
            }
        }
        literals.add(template.substring(literalStart));
        boolean[] catchAllArray = new boolean[catchAlls.size()];
        for (int k = 0; k < catchAllArray.length; k++) {
            catchAllArray[k] = catchAlls.get(k);
        }
        return new PathRewrite(
                Kind.TEMPLATE,
                template,
                null,
                null,
                literals.toArray(new String[0]),
                parameters.toArray(new String[0]),
                catchAllArray);
    }

    /**
     * The upstream target for an incoming one.
     *
     * @param target the incoming path and optional {@code ?query}, such as {@code /api/users?x=1}
     * @param pathParams the route's path parameters, as {@code RequestContext.pathParams()} gives them
     * @return the rewritten target with the query kept; the same instance when nothing changes
     * @throws IllegalArgumentException if a template names a parameter that is not in {@code pathParams}
     */
    public String apply(String target, Map<String, String> pathParams) {
        requireNonNull(target, "target");
        requireNonNull(pathParams, "pathParams");
        if (prefix != null) {
            return replacePrefix(target);
        }
        if (literals != null) {
            return fill(target, pathParams);
        }
        return target;
    }

    /** Which factory made this rewrite. */
    public Kind kind() {
        return kind;
    }

    /**
     * The prefix of {@link Kind#STRIP_PREFIX} and {@link Kind#REPLACE_PREFIX}, or the template of
     * {@link Kind#TEMPLATE}, as given to the factory; {@code null} for {@link Kind#NONE}.
     */
    public String pattern() {
        return pattern;
    }

    /** What replaces the prefix of {@link Kind#REPLACE_PREFIX}; {@code null} for the other kinds. */
    public String replacement() {
        return kind == Kind.REPLACE_PREFIX ? replacement : null;
    }

    /** Equal when made by the same factory with the same arguments. */
    @Override
    public boolean equals(Object other) {
        return other instanceof PathRewrite that
                && kind == that.kind
                && Objects.equals(pattern, that.pattern)
                && Objects.equals(replacement(), that.replacement());
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, pattern, replacement());
    }

    @Override
    public String toString() {
        return "PathRewrite." + description();
    }

    private String description() {
        switch (kind) {
            case STRIP_PREFIX:
                return "stripPrefix(" + pattern + ")";
            case REPLACE_PREFIX:
                return "replacePrefix(" + pattern + ", " + replacement + ")";
            case TEMPLATE:
                return "template(" + pattern + ")";
            default:
                return "none()";
        }
    }

    private String replacePrefix(String target) {
        if (!target.startsWith(prefix)) {
            return target;
        }
        int end = prefix.length();
        if (end == target.length()) {
            return replacement;
        }
        char next = target.charAt(end);
        if (next == '?') {
            return replacement + target.substring(end);
        }
        if (next != '/') {
            return target;
        }
        // Joining "/v2/" or "/" with "/users" must not make an empty segment.
        boolean doubleSlash = replacement.endsWith("/");
        return replacement + target.substring(doubleSlash ? end + 1 : end);
    }

    private String fill(String target, Map<String, String> pathParams) {
        int query = target.indexOf('?');
        StringBuilder path = new StringBuilder(64 + (query < 0 ? 0 : target.length() - query));
        for (int i = 0; i < parameters.length; i++) {
            path.append(literals[i]);
            String value = pathParams.get(parameters[i]);
            if (value == null) {
                throw new IllegalArgumentException("pathParams: no " + parameters[i] + " (expected by " + description()
                        + "; the route must match a parameter of that name)");
            }
            appendEncoded(path, value, catchAlls[i]);
        }
        path.append(literals[parameters.length]);
        if (query >= 0) {
            path.append(target, query, target.length());
        }
        return path.toString();
    }

    /**
     * Router parameters arrive percent-decoded, so they are encoded again: a parameter keeps to one
     * segment ({@code /} becomes {@code %2F}); a catch-all keeps its slashes and the {@code %2F} the
     * router left encoded, so it never gains or loses segments.
     */
    private static void appendEncoded(StringBuilder out, String value, boolean catchAll) {
        int length = value.length();
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (isPathCharacter(c) || (catchAll && c == '/')) {
                out.append(c);
            } else if (catchAll && c == '%' && isEncodedSlash(value, i)) {
                out.append(value, i, i + 3);
                i += 2;
            } else {
                int codePoint = value.codePointAt(i);
                i += Character.charCount(codePoint) - 1;
                appendUtf8Escapes(out, codePoint);
            }
        }
    }

    private static boolean isEncodedSlash(String value, int index) {
        return index + 2 < value.length()
                && value.charAt(index + 1) == '2'
                && (value.charAt(index + 2) == 'F' || value.charAt(index + 2) == 'f');
    }

    private static void appendUtf8Escapes(StringBuilder out, int codePoint) {
        if (codePoint < 0x80) {
            appendEscape(out, codePoint);
        } else if (codePoint < 0x800) {
            appendEscape(out, 0xc0 | codePoint >> 6);
            appendEscape(out, 0x80 | (codePoint & 0x3f));
        } else if (codePoint < 0x10000) {
            appendEscape(out, 0xe0 | codePoint >> 12);
            appendEscape(out, 0x80 | (codePoint >> 6 & 0x3f));
            appendEscape(out, 0x80 | (codePoint & 0x3f));
        } else {
            appendEscape(out, 0xf0 | codePoint >> 18);
            appendEscape(out, 0x80 | (codePoint >> 12 & 0x3f));
            appendEscape(out, 0x80 | (codePoint >> 6 & 0x3f));
            appendEscape(out, 0x80 | (codePoint & 0x3f));
        }
    }

    private static void appendEscape(StringBuilder out, int octet) {
        out.append('%').append(HEX[octet >> 4]).append(HEX[octet & 0xf]);
    }

    /** RFC 3986, section 3.3: pchar without {@code %}, which is handled apart. */
    private static boolean isPathCharacter(char c) {
        return c < 0x80 && PCHAR[c];
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static String prefix(String what, String prefix) {
        requireNonNull(prefix, what);
        if (!prefix.startsWith("/")) {
            throw invalid(what, prefix, "a path starting with / such as /api");
        }
        for (int i = 0; i < prefix.length(); i += prefix.charAt(i) == '%' ? 3 : 1) {
            checkPathCharacter(what, prefix, i);
        }
        return prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    }

    private static void checkPathCharacter(String what, String text, int index) {
        char c = text.charAt(index);
        if (c == '%') {
            if (index + 2 >= text.length() || !isHex(text.charAt(index + 1)) || !isHex(text.charAt(index + 2))) {
                throw invalid(what, text, "percent-escapes of two hex digits");
            }
        } else if (c != '/' && !isPathCharacter(c)) {
            throw invalid(what, text, "only path characters (RFC 3986, section 3.3), no query");
        }
    }

    private static boolean isParameterName(String name) {
        if (name.isEmpty() || (name.charAt(0) >= '0' && name.charAt(0) <= '9')) {
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
