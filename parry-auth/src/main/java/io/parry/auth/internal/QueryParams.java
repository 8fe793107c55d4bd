package io.parry.auth.internal;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** Takes one parameter out of a raw query, or masks its values, without decoding the rest. */
public final class QueryParams {
    private QueryParams() {}

    /** The first raw value of the parameter, or {@code null}; percent-escapes are decoded. */
    public static String value(String query, String name) {
        int start = 0;
        while (start <= query.length()) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = query.length();
            }
            if (isParam(query, start, end, name)) {
                int equals = start + name.length();
                return equals < end ? URLDecoder.decode(query.substring(equals + 1, end), StandardCharsets.UTF_8) : "";
            }
            start = end + 1;
        }
        return null;
    }

    /**
     * The query with every occurrence of the parameter removed ({@code mask == null}) or its value
     * replaced by {@code mask}.
     */
    public static String rewrite(String query, String name, String mask) {
        StringBuilder out = new StringBuilder(query.length());
        int start = 0;
        while (start <= query.length()) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = query.length();
            }
            String part = query.substring(start, end);
            if (isParam(query, start, end, name)) {
                part = mask == null ? null : name + "=" + mask;
            }
            if (part != null && !part.isEmpty()) {
                out.append(out.length() == 0 ? "" : "&").append(part);
            }
            start = end + 1;
        }
        return out.toString();
    }

    private static boolean isParam(String query, int start, int end, String name) {
        int after = start + name.length();
        return after <= end
                && query.regionMatches(start, name, 0, name.length())
                && (after == end || query.charAt(after) == '=');
    }
}
