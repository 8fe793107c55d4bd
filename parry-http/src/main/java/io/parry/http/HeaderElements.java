package io.parry.http;

import io.parry.http.spi.AsciiCase;

/** Reads comma-separated list fields such as {@code Connection: keep-alive, Upgrade} (RFC 9110, section 5.6.1). */
final class HeaderElements {
    private HeaderElements() {}

    static boolean contains(String value, String element) {
        int length = value.length();
        int start = 0;
        while (start <= length) {
            int comma = value.indexOf(',', start);
            int end = comma < 0 ? length : comma;
            int from = start;
            int to = end;
            while (from < to && isSpace(value.charAt(from))) {
                from++;
            }
            while (to > from && isSpace(value.charAt(to - 1))) {
                to--;
            }
            if (AsciiCase.regionEqualsIgnoreCase(value, from, to, element)) {
                return true;
            }
            if (comma < 0) {
                return false;
            }
            start = comma + 1;
        }
        return false;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }
}
