package io.parry.server.internal;

import io.parry.server.PathNormalization;
import io.parry.server.PathNormalization.EscapedSlashAction;
import io.parry.server.PathNormalization.PathParameterAction;

/**
 * Normalises the path of a request-target as received, before the request is built and routed (see
 * {@link PathNormalization} for the rules). A path that is already normal, nearly every one, is found
 * so in one scan and the target returned as it is; any other is rewritten by a {@link PathRewriter}. No
 * regular expression, no split. Immutable and shared by a server's connections.
 */
final class TargetNormalizer {
    private final EscapedSlashAction escapedSlashes;
    private final PathParameterAction pathParameters;

    TargetNormalizer(PathNormalization options) {
        this.escapedSlashes = options.escapedSlashes();
        this.pathParameters = options.pathParameters();
    }

    /**
     * The target with its path normalised and its query untouched; this very string when the path is
     * already normal, and also for {@code *} and targets of no known form, left to the request parser.
     *
     * @throws IllegalArgumentException with a message fit for a 400 response when the path is refused
     * @throws PathRedirect when escaped slashes were unescaped and the client must be redirected
     */
    String normalize(String target) {
        int start = pathStart(target);
        if (start < 0) {
            return target;
        }
        int end = target.indexOf('?', start);
        if (end < 0) {
            end = target.length();
        }
        if (isNormal(target, start, end)) {
            return target;
        }
        StringBuilder out = new StringBuilder(target.length());
        out.append(target, 0, start);
        boolean unescapedSlash = PathRewriter.rewrite(target, start, end, out, escapedSlashes, pathParameters);
        out.append(target, end, target.length());
        if (unescapedSlash && escapedSlashes == EscapedSlashAction.UNESCAPE_AND_REDIRECT) {
            checkQuery(target, end);
            throw new PathRedirect(out.substring(start));
        }
        return out.toString();
    }

    /** The query goes into a {@code Location} field, before the request parser has checked it. */
    private static void checkQuery(String target, int from) {
        for (int i = from; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '#' || c == '\\') {
                throw new IllegalArgumentException("a character that is not allowed in the query");
            }
        }
    }

    /** Where the path begins: 0 in origin form, after the authority in absolute form, else -1. */
    private static int pathStart(String target) {
        if (target.startsWith("/")) {
            return 0;
        }
        int scheme = target.indexOf("://");
        if (scheme <= 0) {
            return -1;
        }
        for (int i = scheme + 3; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c == '/') {
                return i;
            }
            if (c == '?') {
                return -1;
            }
        }
        return -1;
    }

    /** Whether {@code s[from, to)} is its own normal form: the one scan a clean path costs. */
    private boolean isNormal(String s, int from, int to) {
        char previous = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%') {
                int next = canonicalEscapeEnd(s, i, to);
                if (next < 0) {
                    return false;
                }
                i = next - 1;
                previous = '%';
                continue;
            }
            if (c <= 0x20 || c >= 0x7f || c == '\\') {
                return false;
            }
            if (c == ';' && pathParameters != PathParameterAction.KEEP_UNCHANGED) {
                return false;
            }
            if (previous == '/' && (c == '/' || (c == '.' && isDotSegment(s, i, to)))) {
                return false;
            }
            previous = c;
        }
        return true;
    }

    /**
     * The end of the escape at {@code s[i]}, or of the UTF-8 sequence it starts, if the rewrite would write it
     * as it is (upper case, not unreserved, not a control byte, not a slash unless kept); else -1.
     */
    private int canonicalEscapeEnd(String s, int i, int to) {
        if (i + 2 >= to || !isUpperHex(s.charAt(i + 1)) || !isUpperHex(s.charAt(i + 2))) {
            return -1;
        }
        int value = PercentEscapes.byteAt(s, i, to);
        if (value < 0x20 || value == 0x7f || PercentEscapes.isUnreserved(value)) {
            return -1;
        }
        if (value >= 0x80) {
            int end = PercentEscapes.utf8End(s, i, to, value);
            for (int at = i + 3; at < end; at += 3) {
                if (!isUpperHex(s.charAt(at + 1)) || !isUpperHex(s.charAt(at + 2))) {
                    return -1;
                }
            }
            return end;
        }
        return PercentEscapes.isSlash(value) && escapedSlashes != EscapedSlashAction.KEEP_UNCHANGED ? -1 : i + 3;
    }

    private static boolean isDotSegment(String s, int i, int to) {
        int next = i + 1;
        if (next == to || s.charAt(next) == '/') {
            return true;
        }
        return s.charAt(next) == '.' && (next + 1 == to || s.charAt(next + 1) == '/');
    }

    private static boolean isUpperHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
    }
}
