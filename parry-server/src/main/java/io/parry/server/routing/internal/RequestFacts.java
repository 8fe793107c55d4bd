package io.parry.server.routing.internal;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;

/**
 * Reads a query parameter or a cookie where it lies in the request, for route conditions: a request
 * that fails such a condition costs no allocation when its names and values need no decoding.
 */
final class RequestFacts {
    private RequestFacts() {}

    /**
     * Whether the first query parameter with this name is there and, if {@code value} is not {@code
     * null}, equals it once decoded.
     */
    static boolean queryHas(HttpRequest request, String name, String value) {
        String query = request.query();
        if (query.indexOf('%') >= 0 || query.indexOf('+') >= 0) {
            // Escapes must be decoded before comparing: leave that to the request's own reader.
            String actual = request.queryParam(name).orElse(null);
            return actual != null && (value == null || value.equals(actual));
        }
        int start = 0;
        int length = query.length();
        while (start < length) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = length;
            }
            int equals = query.indexOf('=', start);
            int nameEnd = equals < 0 || equals > end ? end : equals;
            if (regionIs(query, start, nameEnd, name)) {
                return value == null || regionIs(query, nameEnd == end ? end : nameEnd + 1, end, value);
            }
            start = end + 1;
        }
        return false;
    }

    /**
     * Whether the first cookie with this name in the {@code Cookie} fields (RFC 6265, section 5.4) has
     * this value, without surrounding quotes.
     */
    static boolean cookieIs(HttpHeaders headers, String name, String value) {
        for (int field = 0; field < headers.size(); field++) {
            if (!headers.name(field).equalsIgnoreCase("cookie")) {
                continue;
            }
            String pairs = headers.value(field);
            int start = 0;
            while (start < pairs.length()) {
                int end = pairs.indexOf(';', start);
                if (end < 0) {
                    end = pairs.length();
                }
                int equals = pairs.indexOf('=', start);
                if (equals > start
                        && equals < end
                        && regionIs(pairs, skipSpaces(pairs, start, equals), trimEnd(pairs, start, equals), name)) {
                    int from = skipSpaces(pairs, equals + 1, end);
                    int to = trimEnd(pairs, from, end);
                    if (to - from >= 2 && pairs.charAt(from) == '"' && pairs.charAt(to - 1) == '"') {
                        from++;
                        to--;
                    }
                    return regionIs(pairs, from, to, value);
                }
                start = end + 1;
            }
        }
        return false;
    }

    private static boolean regionIs(String text, int from, int to, String expected) {
        return to - from == expected.length() && text.regionMatches(from, expected, 0, to - from);
    }

    private static int skipSpaces(String text, int from, int to) {
        while (from < to && text.charAt(from) <= ' ') {
            from++;
        }
        return from;
    }

    private static int trimEnd(String text, int from, int to) {
        while (to > from && text.charAt(to - 1) <= ' ') {
            to--;
        }
        return to;
    }
}
