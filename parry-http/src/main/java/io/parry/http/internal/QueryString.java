package io.parry.http.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads parameters from a raw query ({@code application/x-www-form-urlencoded}: {@code +} is a space,
 * percent-escapes are UTF-8) without building a map: a request usually asks for one or two names.
 */
public final class QueryString {
    private QueryString() {}

    /** The decoded value of the first parameter with this name, or {@code null}. */
    public static String first(String query, String name) {
        List<String> values = find(query, name, true);
        return values.isEmpty() ? null : values.get(0);
    }

    /** The decoded values of every parameter with this name, in order. */
    public static List<String> all(String query, String name) {
        return find(query, name, false);
    }

    private static List<String> find(String query, String name, boolean firstOnly) {
        List<String> values = new ArrayList<>(1);
        int start = 0;
        int length = query.length();
        while (start < length) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = length;
            }
            int equals = query.indexOf('=', start);
            int nameEnd = equals < 0 || equals > end ? end : equals;
            if (decode(query, start, nameEnd).equals(name)) {
                values.add(nameEnd == end ? "" : decode(query, nameEnd + 1, end));
                if (firstOnly) {
                    return values;
                }
            }
            start = end + 1;
        }
        return values;
    }

    /** Decodes a form-encoded range; the request-target was checked, so every {@code %} has two hex digits. */
    static String decode(String s, int from, int to) {
        boolean plain = true;
        for (int i = from; i < to && plain; i++) {
            char c = s.charAt(i);
            plain = c != '%' && c != '+';
        }
        if (plain) {
            return s.substring(from, to);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(to - from);
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '+') {
                bytes.write(' ');
            } else if (c == '%' && i + 2 < to) {
                bytes.write(PathNormalizer.hexValue(s.charAt(i + 1)) << 4 | PathNormalizer.hexValue(s.charAt(i + 2)));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
