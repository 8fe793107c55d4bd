package io.parry.server.routing.internal;

import io.parry.http.HttpHeaders;

/** Reads a cookie from {@code Cookie} fields ({@code name=value; name2=value2}, RFC 6265, section 5.4). */
public final class Cookies {
    private Cookies() {}

    /** The value of the first cookie with this name, without surrounding quotes, or {@code null}. */
    public static String find(HttpHeaders headers, String name) {
        for (String field : headers.getAll("cookie")) {
            int start = 0;
            while (start < field.length()) {
                int end = field.indexOf(';', start);
                if (end < 0) {
                    end = field.length();
                }
                int equals = field.indexOf('=', start);
                if (equals > 0
                        && equals < end
                        && field.substring(start, equals).trim().equals(name)) {
                    String value = field.substring(equals + 1, end).trim();
                    boolean quoted = value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"");
                    return quoted ? value.substring(1, value.length() - 1) : value;
                }
                start = end + 1;
            }
        }
        return null;
    }
}
