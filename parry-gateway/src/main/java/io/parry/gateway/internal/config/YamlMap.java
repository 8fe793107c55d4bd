package io.parry.gateway.internal.config;

import java.util.List;

/** A YAML mapping, its keys unique and in the file's order. */
record YamlMap(List<YamlEntry> entries, Location location) implements YamlNode {

    /** The entry with this key, or {@code null}. */
    YamlEntry entry(String key) {
        for (YamlEntry entry : entries) {
            if (entry.key().equals(key)) {
                return entry;
            }
        }
        return null;
    }

    @Override
    public String describe() {
        return "a mapping";
    }
}
