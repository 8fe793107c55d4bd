package io.parry.openapi.internal;

import java.util.ArrayList;
import java.util.List;

/** Router patterns as OpenAPI paths: {@code /files/{*path}} and {@code /todos/{id:\d+}} become {@code /files/{path}} and {@code /todos/{id}}. */
public final class OpenApiPaths {
    private OpenApiPaths() {}

    public static String of(String pattern) {
        StringBuilder path = new StringBuilder();
        int i = 0;
        while (i < pattern.length()) {
            int open = pattern.indexOf('{', i);
            if (open < 0) {
                break;
            }
            int close = closing(pattern, open);
            path.append(pattern, i, open)
                    .append('{')
                    .append(name(pattern.substring(open + 1, close)))
                    .append('}');
            i = close + 1;
        }
        return path.append(pattern.substring(Math.min(i, pattern.length()))).toString();
    }

    /** The names of the pattern's parameters, in order. */
    public static List<String> parameters(String pattern) {
        List<String> names = new ArrayList<>();
        int open = pattern.indexOf('{');
        while (open >= 0) {
            int close = closing(pattern, open);
            names.add(name(pattern.substring(open + 1, close)));
            open = pattern.indexOf('{', close + 1);
        }
        return names;
    }

    private static String name(String inside) {
        int colon = inside.indexOf(':');
        String name = colon < 0 ? inside : inside.substring(0, colon);
        return name.startsWith("*") ? name.substring(1) : name;
    }

    /** The index of the brace closing the one at {@code open}; a regex may hold braces of its own. */
    private static int closing(String pattern, int open) {
        int depth = 0;
        for (int i = open; i < pattern.length(); i++) {
            depth += pattern.charAt(i) == '{' ? 1 : pattern.charAt(i) == '}' ? -1 : 0;
            if (depth == 0) {
                return i;
            }
        }
        return pattern.length() - 1;
    }
}
