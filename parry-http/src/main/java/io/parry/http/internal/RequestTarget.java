package io.parry.http.internal;

/**
 * A parsed request-target (RFC 9112, section 3.2): its normalised path, raw query and, for the
 * absolute form, its authority. Parsing rejects what no handler should see: control characters,
 * invalid or NUL percent-encoding, fragments and backslashes; then it removes dot-segments (RFC
 * 3986, section 5.2.4) so {@code /a/../../etc} can never climb above the root.
 */
public final class RequestTarget {
    private final String path;
    private final String query;
    private final String authority;

    private RequestTarget(String path, String query, String authority) {
        this.path = path;
        this.query = query;
        this.authority = authority;
    }

    /**
     * Parses a request-target as received.
     *
     * @throws IllegalArgumentException with a message fit for a 400 response when it is malformed
     */
    public static RequestTarget parse(String target) {
        if (target.isEmpty()) {
            throw new IllegalArgumentException("empty request-target");
        }
        if (target.equals("*")) {
            return new RequestTarget("*", "", null);
        }
        checkCharacters(target);
        if (target.charAt(0) == '/') {
            return originForm(target, null);
        }
        return absoluteForm(target);
    }

    private static RequestTarget absoluteForm(String target) {
        int schemeEnd = target.indexOf("://");
        if (schemeEnd <= 0 || !isHttpScheme(target, schemeEnd)) {
            throw new IllegalArgumentException("request-target is neither origin-form nor absolute-form");
        }
        int authorityStart = schemeEnd + 3;
        int authorityEnd = authorityStart;
        while (authorityEnd < target.length()
                && target.charAt(authorityEnd) != '/'
                && target.charAt(authorityEnd) != '?') {
            authorityEnd++;
        }
        String authority = target.substring(authorityStart, authorityEnd);
        if (authority.isEmpty() || authority.indexOf('@') >= 0) {
            throw new IllegalArgumentException("absolute-form request-target needs a host and no user info");
        }
        String rest = target.substring(authorityEnd);
        return originForm(rest.isEmpty() || rest.charAt(0) == '?' ? "/" + rest : rest, authority);
    }

    private static boolean isHttpScheme(String target, int schemeEnd) {
        return (schemeEnd == 4 && target.regionMatches(true, 0, "http", 0, 4))
                || (schemeEnd == 5 && target.regionMatches(true, 0, "https", 0, 5));
    }

    private static RequestTarget originForm(String target, String authority) {
        int question = target.indexOf('?');
        String rawPath = question < 0 ? target : target.substring(0, question);
        String query = question < 0 ? "" : target.substring(question + 1);
        return new RequestTarget(PathNormalizer.normalize(rawPath), query, authority);
    }

    private static void checkCharacters(String target) {
        int length = target.length();
        for (int i = 0; i < length; i++) {
            char c = target.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '#' || c == '\\') {
                throw new IllegalArgumentException(
                        "request-target holds a character that is not allowed at index " + i);
            }
            if (c == '%') {
                checkPercent(target, i);
                i += 2;
            }
        }
    }

    private static void checkPercent(String target, int index) {
        if (index + 2 >= target.length()
                || PathNormalizer.hexValue(target.charAt(index + 1)) < 0
                || PathNormalizer.hexValue(target.charAt(index + 2)) < 0) {
            throw new IllegalArgumentException("invalid percent-encoding at index " + index);
        }
        if (target.charAt(index + 1) == '0' && target.charAt(index + 2) == '0') {
            throw new IllegalArgumentException("percent-encoded NUL at index " + index);
        }
    }

    /** The normalised path, still percent-encoded where encoding matters ({@code %2F} stays), or {@code *}. */
    public String path() {
        return path;
    }

    /** The raw query after {@code ?}, empty when there is none. */
    public String query() {
        return query;
    }

    /** The authority of an absolute-form target, or {@code null} for the origin form. */
    public String authority() {
        return authority;
    }
}
