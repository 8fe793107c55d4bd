package io.parry.gateway.internal.config;

import io.parry.proxy.HeaderRules;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Header rules of a proxy route (YAML {@code requestHeaders} or {@code responseHeaders}). They apply
 * as {@code remove}, then {@code set}, then {@code add}, whatever order the file gives them in, so a
 * file can remove a field and add it back.
 *
 * @param add fields added, keeping any of the same name
 * @param set fields that replace every field of the same name
 * @param remove names of fields removed
 */
public record HeaderRulesConfig(Map<String, String> add, Map<String, String> set, List<String> remove) {
    /** No rules. */
    public static final HeaderRulesConfig NONE = new HeaderRulesConfig(Map.of(), Map.of(), List.of());

    /** Copies the collections, keeping their order. */
    public HeaderRulesConfig {
        add = Collections.unmodifiableMap(new LinkedHashMap<>(add));
        set = Collections.unmodifiableMap(new LinkedHashMap<>(set));
        remove = List.copyOf(remove);
    }

    /** These rules as a proxy option. */
    public HeaderRules toRules() {
        HeaderRules.Builder builder = HeaderRules.builder();
        for (String name : remove) {
            builder.remove(name);
        }
        for (Map.Entry<String, String> field : set.entrySet()) {
            builder.set(field.getKey(), field.getValue());
        }
        for (Map.Entry<String, String> field : add.entrySet()) {
            builder.add(field.getKey(), field.getValue());
        }
        return builder.build();
    }
}
