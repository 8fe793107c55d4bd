package io.parry.server.internal;

import io.parry.server.PathNormalization.EscapedSlashAction;
import io.parry.server.PathNormalization.PathParameterAction;

/**
 * Rewrites one path that is not normal into its normal form (see {@link io.parry.server.PathNormalization}),
 * segment by segment into one buffer: each segment is decoded and stripped of its parameter as it is
 * read, so {@code ..;x} and {@code %2e%2e} are {@code ..} by the time it ends; then it is kept, dropped
 * (empty or {@code .}) or made to drop its parent ({@code ..}, RFC 3986, section 5.2.4). One per path;
 * not thread-safe.
 */
final class PathRewriter {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final String s;
    private final int to;
    private final StringBuilder out;
    private final int base;
    private final EscapedSlashAction escapedSlashes;
    private final PathParameterAction pathParameters;
    private int i;
    private boolean inParameter;
    private boolean separated;
    private boolean unescapedSlash;

    private PathRewriter(
            String s, int from, int to, StringBuilder out, EscapedSlashAction slashes, PathParameterAction parameters) {
        this.s = s;
        this.i = from + 1;
        this.to = to;
        this.out = out;
        this.base = out.length();
        this.escapedSlashes = slashes;
        this.pathParameters = parameters;
    }

    /**
     * Appends the normal form of {@code s[from, to)}, which starts with {@code /}, to {@code out}.
     *
     * @return whether an escaped slash was read as a separator
     * @throws IllegalArgumentException with a message fit for a 400 response when the path is refused
     */
    static boolean rewrite(
            String s,
            int from,
            int to,
            StringBuilder out,
            EscapedSlashAction escapedSlashes,
            PathParameterAction pathParameters) {
        return new PathRewriter(s, from, to, out, escapedSlashes, pathParameters).run();
    }

    private boolean run() {
        boolean last;
        do {
            int segment = out.length();
            out.append('/');
            readSegment();
            last = !separated;
            endSegment(segment, last);
        } while (!last);
        return unescapedSlash;
    }

    private void readSegment() {
        inParameter = false;
        separated = false;
        while (i < to && !separated) {
            char c = s.charAt(i);
            if (c == '/') {
                separated = true;
                i++;
            } else if (c == '%') {
                readEscape();
            } else {
                readCharacter(c);
            }
        }
    }

    private void readCharacter(char c) {
        if (c <= 0x20 || c >= 0x7f || c == '\\') {
            throw new IllegalArgumentException("a character that is not allowed in the path");
        }
        if (c == ';' && !inParameter && pathParameters != PathParameterAction.KEEP_UNCHANGED) {
            if (pathParameters == PathParameterAction.REJECT_REQUEST) {
                throw new IllegalArgumentException("a ';' parameter in the path");
            }
            inParameter = true;
        } else if (!inParameter) {
            out.append(c);
        }
        i++;
    }

    /** Escapes are checked even in a parameter being stripped: a path holding a bad one is refused whole. */
    private void readEscape() {
        int value = PercentEscapes.byteAt(s, i, to);
        if (value < 0) {
            throw new IllegalArgumentException("invalid percent-encoding in the path");
        }
        if (value < 0x20 || value == 0x7f) {
            throw new IllegalArgumentException("a percent-encoded control character in the path");
        }
        if (value >= 0x80) {
            readUtf8(value);
            return;
        }
        i += 3;
        if (PercentEscapes.isSlash(value) && escapedSlashes != EscapedSlashAction.KEEP_UNCHANGED) {
            if (escapedSlashes == EscapedSlashAction.REJECT_REQUEST) {
                throw new IllegalArgumentException("encoded slash or backslash in the path");
            }
            if (!inParameter) {
                unescapedSlash = true;
                separated = true;
            }
        } else if (!inParameter) {
            appendCanonical(value);
        }
    }

    private void readUtf8(int lead) {
        int end = PercentEscapes.utf8End(s, i, to, lead);
        if (end < 0) {
            throw new IllegalArgumentException("percent-encoded bytes that are not UTF-8 in the path");
        }
        for (; i < end && !inParameter; i += 3) {
            appendCanonical(PercentEscapes.byteAt(s, i, to));
        }
        i = end;
    }

    /** RFC 3986, section 6.2.2: unreserved characters decoded, other escapes in upper case. */
    private void appendCanonical(int value) {
        if (PercentEscapes.isUnreserved(value)) {
            out.append((char) value);
        } else {
            out.append('%').append(HEX[value >> 4]).append(HEX[value & 0xf]);
        }
    }

    /** Keeps, drops or resolves the segment written at {@code out[segment]}: its {@code /}, then its text. */
    private void endSegment(int segment, boolean last) {
        int length = out.length() - segment - 1;
        boolean dot = length == 1 && out.charAt(segment + 1) == '.';
        boolean dotDot = length == 2 && out.charAt(segment + 1) == '.' && out.charAt(segment + 2) == '.';
        if (length == 0) {
            // Runs of slashes merge, as NGINX does; a last empty segment is the trailing slash.
            if (!last) {
                out.setLength(segment);
            }
            return;
        }
        if (!dot && !dotDot) {
            return;
        }
        out.setLength(segment);
        if (dotDot) {
            if (segment == base) {
                throw new IllegalArgumentException("the path climbs above the root");
            }
            out.setLength(out.lastIndexOf("/", segment - 1));
        }
        if (last) {
            out.append('/');
        }
    }
}
