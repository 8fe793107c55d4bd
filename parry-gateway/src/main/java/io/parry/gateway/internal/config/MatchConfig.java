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
 */
public record MatchConfig(MatchKind kind, String path, List<String> methods, String host, Map<String, String> headers) {

    /** Copies the collections. */
    public MatchConfig {
        methods = List.copyOf(methods);
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }
}
