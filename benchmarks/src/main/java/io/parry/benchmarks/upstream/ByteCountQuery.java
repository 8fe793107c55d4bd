package io.parry.benchmarks.upstream;

/** Reads the {@code bytes} query parameter of {@code GET /download?bytes=N} with a plain scan. */
final class ByteCountQuery {
    /** The largest download accepted (1 TiB), so a typo cannot start an endless stream. */
    static final long MAX_BYTES = 1L << 40;

    private static final String NAME = "bytes=";

    private ByteCountQuery() {}

    /**
     * Returns the number named by {@code bytes} in the request target {@code uri}, or {@code -1} when the parameter
     * is missing, not a plain decimal number, or above {@link #MAX_BYTES}.
     */
    static long bytes(String uri) {
        int start = uri.indexOf('?') + 1;
        if (start == 0) {
            return -1;
        }
        while (start < uri.length()) {
            int end = uri.indexOf('&', start);
            if (end < 0) {
                end = uri.length();
            }
            if (uri.startsWith(NAME, start)) {
                return parse(uri, start + NAME.length(), end);
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
            if (value > MAX_BYTES) {
                return -1;
            }
        }
        return value;
    }
}
