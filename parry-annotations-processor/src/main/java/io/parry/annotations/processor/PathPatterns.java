package io.parry.annotations.processor;

import java.util.ArrayList;
import java.util.List;

/** Joins and reads route patterns as the router writes them: {@code {id}}, {@code {id:regex}}, {@code {*rest}}. */
final class PathPatterns {
    private PathPatterns() {}

    /**
     * The full pattern of a method's path under a class prefix, both read leniently as JAX-RS and
     * Spring write them (a missing leading slash, {@code { id : \d+ }}); an empty path, or {@code /},
     * is the prefix itself.
     */
    static String join(String prefix, String path) {
        String head = tidy(prefix);
        if (head.endsWith("/")) {
            head = head.substring(0, head.length() - 1);
        }
        String tail = tidy(path);
        if (tail.isEmpty() || tail.equals("/")) {
            return head.isEmpty() ? "/" : head;
        }
        return head + tail;
    }

    /** The names of the pattern's parameters, in order. */
    static List<String> parameters(String pattern) {
        List<String> names = new ArrayList<>();
        for (Parameter parameter : split(pattern)) {
            names.add(parameter.name());
        }
        return names;
    }

    /** The regular expression of each parameter ({@code null} for none), in the order of {@link #parameters}. */
    static List<String> constraints(String pattern) {
        List<String> regexes = new ArrayList<>();
        for (Parameter parameter : split(pattern)) {
            regexes.add(parameter.regex());
        }
        return regexes;
    }

    /** The pattern as OpenAPI writes a path: {@code /todos/{id}} for {@code /todos/{id:\d+}}. */
    static String openApi(String pattern) {
        StringBuilder path = new StringBuilder();
        int i = 0;
        for (Parameter parameter : split(pattern)) {
            int open = pattern.indexOf('{', i);
            path.append(pattern, i, open).append('{').append(parameter.name()).append('}');
            i = parameter.end();
        }
        return path.append(pattern.substring(i)).toString();
    }

    /** The pattern with parameter names left out, so two routes at the same place have the same shape. */
    static String shape(String pattern) {
        StringBuilder shape = new StringBuilder();
        int i = 0;
        for (Parameter parameter : split(pattern)) {
            int open = pattern.indexOf('{', i);
            shape.append(pattern, i, open)
                    .append(parameter.catchAll() ? "{*}" : "{" + nullToEmpty(parameter.regex()) + "}");
            i = parameter.end();
        }
        return shape.append(pattern.substring(i)).toString();
    }

    private static String nullToEmpty(String text) {
        return text == null ? "" : ":" + text;
    }

    private static String tidy(String path) {
        String trimmed = path.trim();
        if (trimmed.isEmpty()) {
            return "";
        }
        StringBuilder tidy = new StringBuilder(trimmed.startsWith("/") ? "" : "/");
        int i = 0;
        for (Parameter parameter : split(trimmed)) {
            int open = trimmed.indexOf('{', i);
            tidy.append(trimmed, i, open)
                    .append('{')
                    .append(parameter.catchAll() ? "*" : "")
                    .append(parameter.name());
            if (parameter.regex() != null) {
                tidy.append(':').append(parameter.regex());
            }
            tidy.append('}');
            i = parameter.end();
        }
        return tidy.append(trimmed.substring(i)).toString();
    }

    private static List<Parameter> split(String pattern) {
        List<Parameter> parameters = new ArrayList<>();
        int i = pattern.indexOf('{');
        while (i >= 0) {
            int depth = 0;
            int end = i;
            while (end < pattern.length()) {
                char c = pattern.charAt(end);
                depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                if (depth == 0) {
                    break;
                }
                end++;
            }
            String inside = pattern.substring(i + 1, Math.min(end, pattern.length()));
            int colon = inside.indexOf(':');
            String name = (colon < 0 ? inside : inside.substring(0, colon)).trim();
            boolean catchAll = name.startsWith("*");
            String regex = colon < 0 ? null : inside.substring(colon + 1).trim();
            parameters.add(new Parameter(name.substring(catchAll ? 1 : 0).trim(), regex, end + 1, catchAll));
            i = pattern.indexOf('{', end + 1);
        }
        return parameters;
    }

    /** A parameter of a pattern; {@code end} is the index after its closing brace, {@code regex} {@code null} for none. */
    private record Parameter(String name, String regex, int end, boolean catchAll) {}
}
