package io.parry.benchmarks.baseline;

/**
 * Reads the {@code ms} query parameter of {@code GET /delay?ms=N} with a plain scan: no regex, no query decoder.
 */
final class DelayQuery {
    /** The longest delay accepted, so a typo cannot park a connection for hours. */
    static final long MAX_MILLIS = 60_000;

    private DelayQuery() {}

    /**
     * Returns the delay in milliseconds named by {@code ms} in the request target {@code uri}, or {@code -1} when the
     * parameter is missing, not a plain decimal number, or above {@link #MAX_MILLIS}.
     */
    static long millis(String uri) {
        int start = uri.indexOf('?') + 1;
        if (start == 0) {
            return -1;
        }
        while (start < uri.length()) {
            int end = uri.indexOf('&', start);
            if (end < 0) {
                end = uri.length();
            }
            if (uri.startsWith("ms=", start)) {
                return parse(uri, start + "ms=".length(), end);
            }
            start = end + 1;
        }
        return -1;
    }

    private static long parse(String uri, int from, int to) {
        if (from == to) {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = uri.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
            if (value > MAX_MILLIS) {
                return -1;
            }
        }
        return value;
    }
}
