package io.parry.gateway.internal.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which requests a route takes (YAML {@code match}): a path, compared as {@code kind} says, and
 * optional conditions that must all hold.
 *
 * @param kind how {@code path} is compared: from YAML {@code prefix}, or {@code path} without
 *     (exact) or with (template) parameters
 * @param path the path, prefix or template, starting with {@code /}; a prefix never ends with {@code /}
 *     unless it is the root prefix {@code /}
 * @param methods the methods taken, as written (methods are case-sensitive); empty for any
 * @param host the {@code Host} the request must name, compared case-insensitively, with an optional
 *     port; {@code null} for any
 * @param headers fields the request must carry with exactly these values, names case-insensitive;
 *     empty for no condition
 * @param query query parameters the request must carry: with exactly this value once decoded, or, for
 *     a {@code null} value, with any value; empty for no condition
 * @param cookies cookies the request must carry with exactly these values; empty for no condition
 * @param clientAddress addresses and CIDR blocks, one of which the client's address (after trusted
 *     proxies) must be in, as written; empty for any client
 */
public record MatchConfig(
        MatchKind kind,
        String path,
        List<String> methods,
        String host,
        Map<String, String> headers,
        Map<String, String> query,
        Map<String, String> cookies,
        List<String> clientAddress) {

    /** Copies the collections. */
    public MatchConfig {
        methods = List.copyOf(methods);
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        query = Collections.unmodifiableMap(new LinkedHashMap<>(query));
        cookies = Collections.unmodifiableMap(new LinkedHashMap<>(cookies));
        clientAddress = List.copyOf(clientAddress);
    }

    /** A match on the path, methods, host and headers only. */
    public MatchConfig(MatchKind kind, String path, List<String> methods, String host, Map<String, String> headers) {
        this(kind, path, methods, host, headers, Map.of(), Map.of(), List.of());
    }
}
