package io.parry.http.internal;

/**
 * Normalises a percent-checked path: decodes percent-encoded unreserved characters (RFC 3986,
 * section 6.2.2.2), so {@code %2e%2e} is seen as {@code ..}, merges runs of slashes, then removes
 * dot-segments. Paths with no {@code %}, double slash or dot-segment, nearly all of them, are
 * returned as they are without copying.
 */
public final class PathNormalizer {
    private PathNormalizer() {}

    /** The normalised form of a path that starts with {@code /}. */
    public static String normalize(String path) {
        if (path.indexOf('%') < 0 && path.indexOf("//") < 0 && !hasDotSegment(path)) {
            return path;
        }
        String merged = mergeSlashes(path.indexOf('%') < 0 ? path : decodeUnreserved(path));
        return hasDotSegment(merged) ? removeDotSegments(merged) : merged;
    }

    /**
     * Collapses runs of slashes, as NGINX does by default: an empty segment would otherwise let a
     * catch-all parameter start with {@code /} and read as an absolute path.
     */
    private static String mergeSlashes(String path) {
        if (path.indexOf("//") < 0) {
            return path;
        }
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c != '/' || out.length() == 0 || out.charAt(out.length() - 1) != '/') {
                out.append(c);
            }
        }
        return out.toString();
    }

    static boolean hasDotSegment(String path) {
        int length = path.length();
        for (int i = 0; i < length; i++) {
            if (i > 0 && path.charAt(i) == '.' && path.charAt(i - 1) == '/') {
                int next = i + 1;
                if (next == length || path.charAt(next) == '/') {
                    return true;
                }
                if (path.charAt(next) == '.' && (next + 1 == length || path.charAt(next + 1) == '/')) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String decodeUnreserved(String path) {
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%') {
                char decoded = (char) (hexValue(path.charAt(i + 1)) << 4 | hexValue(path.charAt(i + 2)));
                if (isUnreserved(decoded)) {
                    out.append(decoded);
                } else {
                    out.append('%')
                            .append(Character.toUpperCase(path.charAt(i + 1)))
                            .append(Character.toUpperCase(path.charAt(i + 2)));
                }
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** RFC 3986, section 5.2.4, over segments: {@code .} is dropped and {@code ..} drops its parent, never the root. */
    private static String removeDotSegments(String path) {
        String[] segments = path.substring(1).split("/", -1);
        String[] kept = new String[segments.length];
        int count = 0;
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            boolean last = i == segments.length - 1;
            if (segment.equals(".") || segment.equals("..")) {
                if (segment.equals("..") && count > 0) {
                    count--;
                }
                if (last) {
                    kept[count++] = "";
                }
            } else {
                kept[count++] = segment;
            }
        }
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < count; i++) {
            out.append('/').append(kept[i]);
        }
        return out.length() == 0 ? "/" : out.toString();
    }

    private static boolean isUnreserved(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '.'
                || c == '_'
                || c == '~';
    }

    static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
