package io.parry.gateway.internal.config;

import io.parry.http.AddressBlocks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a route's {@code match}: exactly one of {@code prefix} or {@code path}, and optional methods,
 * host, headers, query parameters, cookies and client addresses.
 */
final class MatchReader {
    static final List<String> KEYS =
            List.of("prefix", "path", "methods", "host", "headers", "query", "cookies", "clientAddress");
    private static final String QUERY_EXPECTED = "a value, or {present: true} for any value";
    private static final Set<String> STANDARD_METHODS =
            Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");

    private MatchReader() {}

    /** The match, or {@code null} after an error if there is none that can be used. */
    static MatchConfig read(Section route) {
        if (!route.has("match")) {
            route.missing("match", "a mapping with a prefix or a path, such as {prefix: /api}");
            return null;
        }
        Section section = route.section("match", route.context() + " match", KEYS);
        if (section == null) {
            return null;
        }
        MatchConfig path = path(section);
        List<String> methods = methods(section);
        String host = host(section);
        Map<String, String> headers = section.stringMap("headers", "a header value");
        HeaderSyntax.check(section, "headers");
        Map<String, String> query = query(section);
        Map<String, String> cookies = cookies(section);
        List<String> clientAddress = clientAddress(section);
        return path == null
                ? null
                : new MatchConfig(path.kind(), path.path(), methods, host, headers, query, cookies, clientAddress);
    }

    private static MatchConfig path(Section section) {
        boolean prefix = section.has("prefix");
        boolean path = section.has("path");
        if (prefix == path) {
            section.error(
                    prefix ? section.keyLocation("path") : section.location(),
                    section.context() + (prefix ? " has both 'prefix' and 'path'" : " has neither 'prefix' nor 'path'")
                            + " (expected exactly one)");
            return null;
        }
        if (prefix) {
            String text = section.text("prefix", "a path prefix such as /api");
            String problem = text == null ? null : PathSyntax.literalProblem(text);
            if (problem != null) {
                section.invalid(
                        "prefix", "'prefix' must be a path prefix such as /api, got '" + text + "': " + problem);
                return null;
            }
            // A trailing slash changes nothing for a segment-boundary prefix; dropping it keeps one form.
            String normalized = text != null && text.length() > 1 && text.endsWith("/")
                    ? text.substring(0, text.length() - 1)
                    : text;
            return text == null ? null : new MatchConfig(MatchKind.PREFIX, normalized, List.of(), null, Map.of());
        }
        String text = section.text("path", "a path such as /hello or a template such as /users/{id}");
        if (text == null) {
            return null;
        }
        boolean template = text.indexOf('{') >= 0;
        String problem = template ? PathSyntax.templateProblem(text) : PathSyntax.literalProblem(text);
        if (problem != null) {
            section.invalid(
                    "path",
                    "'path' must be a path such as /hello or a template such as /users/{id}, got '" + text + "': "
                            + problem);
            return null;
        }
        return new MatchConfig(template ? MatchKind.TEMPLATE : MatchKind.EXACT, text, List.of(), null, Map.of());
    }

    private static List<String> methods(Section section) {
        List<String> methods = new ArrayList<>();
        for (YamlScalar scalar : section.scalars("methods", "an HTTP method such as GET")) {
            String method = scalar.text();
            String upper = method.toUpperCase(Locale.ROOT);
            if (!method.equals(upper) && STANDARD_METHODS.contains(upper)) {
                section.error(
                        scalar.location(),
                        "'" + method + "' in 'methods' is not a method, did you mean '" + upper
                                + "'? (methods are case-sensitive)");
            } else if (!HeaderSyntax.isName(method)) {
                section.error(
                        scalar.location(),
                        "'" + method + "' in 'methods' is not an HTTP method (expected a token such as GET)");
            } else if (!methods.contains(method)) {
                methods.add(method);
            }
        }
        if (section.has("methods") && methods.isEmpty() && section.node("methods") instanceof YamlList) {
            section.invalid("methods", "'methods' is empty (expected at least one method, or no 'methods' for any)");
        }
        return methods;
    }

    private static String host(Section section) {
        String host = section.text("host", "a host name such as api.example.com");
        if (host != null && !ProxyActionReader.isHost(host)) {
            section.invalid(
                    "host",
                    "'host' must be a host name with an optional port such as api.example.com, got '" + host + "'");
            return null;
        }
        return host;
    }

    /** The query conditions by name: a value to equal, or {@code null} for {@code {present: true}}. */
    private static Map<String, String> query(Section section) {
        YamlNode node = section.node("query");
        if (node == null) {
            return Map.of();
        }
        if (!(node instanceof YamlMap map)) {
            section.wrongType("query", "a mapping of parameter names to " + QUERY_EXPECTED, node);
            return Map.of();
        }
        Map<String, String> query = new LinkedHashMap<>();
        for (YamlEntry entry : map.entries()) {
            YamlNode value = entry.value();
            if (entry.key().isEmpty()) {
                section.error(entry.keyLocation(), "a parameter name in 'query' is empty");
            } else if (value instanceof YamlScalar scalar && !scalar.isNull()) {
                query.put(entry.key(), scalar.text());
            } else if (value instanceof YamlMap present
                    && present.entries().size() == 1
                    && present.entry("present") != null
                    && present.entry("present").value() instanceof YamlScalar flag
                    && "true".equals(flag.text())) {
                query.put(entry.key(), null);
            } else {
                section.error(
                        value.location(),
                        "'" + entry.key() + "' in 'query' must be " + QUERY_EXPECTED + ", got " + value.describe());
            }
        }
        return query;
    }

    private static Map<String, String> cookies(Section section) {
        Map<String, String> cookies = section.stringMap("cookies", "a cookie value");
        if (section.node("cookies") instanceof YamlMap map) {
            for (YamlEntry entry : map.entries()) {
                if (!HeaderSyntax.isName(entry.key())) {
                    section.error(
                            entry.keyLocation(),
                            "'" + entry.key()
                                    + "' in 'cookies' is not a cookie name (expected a token such as session)");
                }
                String value = cookies.get(entry.key());
                if (value != null && !isCookieValue(value)) {
                    section.error(
                            entry.value().location(),
                            "the value of cookie '" + entry.key()
                                    + "' holds a character a cookie value cannot (a space, a quote, a comma, a semicolon,"
                                    + " a backslash or a control character; RFC 6265, section 4.1.1)");
                }
            }
        }
        return cookies;
    }

    private static boolean isCookieValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || c >= 0x7f || c == '"' || c == ',' || c == ';' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static List<String> clientAddress(Section section) {
        String expected = "an IPv4 or IPv6 address or CIDR block such as 10.0.0.0/8";
        List<String> blocks = new ArrayList<>();
        for (YamlScalar scalar : section.scalars("clientAddress", expected)) {
            try {
                AddressBlocks.parse("clientAddress", List.of(scalar.text()));
                blocks.add(scalar.text());
            } catch (IllegalArgumentException e) {
                section.error(scalar.location(), "'clientAddress' is invalid: " + e.getMessage());
            }
        }
        if (section.has("clientAddress")
                && blocks.isEmpty()
                && section.node("clientAddress") instanceof YamlList list
                && list.items().isEmpty()) {
            section.invalid(
                    "clientAddress",
                    "'clientAddress' is empty (expected at least one address or block, or no 'clientAddress' for any)");
        }
        return blocks;
    }
}
