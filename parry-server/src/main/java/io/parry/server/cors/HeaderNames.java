package io.parry.server.cors;

import java.util.ArrayList;
import java.util.List;

/**
 * Header names in CORS fields: checked and lower-cased once when configured, and read from a
 * preflight's {@code Access-Control-Request-Headers}, a comma-separated list of names (Fetch, "CORS
 * protocol", HTTP request headers). Names compare case-insensitively, so both sides are lower-cased.
 */
final class HeaderNames {
    private HeaderNames() {}

    /** The configured name in lower case; {@code *} is refused unless {@code wildcard} names the option to use. */
    static String normalize(String option, String name, String wildcard) {
        if (name.equals("*") && wildcard != null) {
            throw new IllegalArgumentException(option + ": * (expected: header names; use " + wildcard + ")");
        }
        if (!isToken(name)) {
            throw new IllegalArgumentException(option + ": " + name + " (expected: a header name)");
        }
        return toLowerCase(name);
    }

    /**
     * The names listed in the field's lines, lower-cased, empty elements skipped (RFC 9110, section
     * 5.6.1); {@code null} when an element is not a token.
     */
    static List<String> parse(List<String> lines) {
        List<String> names = new ArrayList<>(4);
        for (String line : lines) {
            int length = line.length();
            int start = 0;
            while (start <= length) {
                int comma = line.indexOf(',', start);
                int end = comma < 0 ? length : comma;
                int from = start;
                int to = end;
                while (from < to && isSpace(line.charAt(from))) {
                    from++;
                }
                while (to > from && isSpace(line.charAt(to - 1))) {
                    to--;
                }
                if (from < to) {
                    String name = line.substring(from, to);
                    if (!isToken(name)) {
                        return null;
                    }
                    names.add(toLowerCase(name));
                }
                start = end + 1;
            }
        }
        return names;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    /** RFC 9110, section 5.6.2: {@code tchar = "!" / "#" / ... / DIGIT / ALPHA}. */
    static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alphanumeric && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /** ASCII lower case, without the locale-dependent rules of {@link String#toLowerCase()}. */
    static String toLowerCase(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                char[] chars = s.toCharArray();
                for (int j = i; j < chars.length; j++) {
                    if (chars[j] >= 'A' && chars[j] <= 'Z') {
                        chars[j] += 32;
                    }
                }
                return new String(chars);
            }
        }
        return s;
    }
}
