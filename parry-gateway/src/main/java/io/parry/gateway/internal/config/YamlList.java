package io.parry.gateway.internal.config;

import java.util.List;

/** A YAML sequence. */
record YamlList(List<YamlNode> items, Location location) implements YamlNode {

    @Override
    public String describe() {
        return "a list";
    }
}
