package io.parry.gateway.internal.config;

/**
 * A YAML scalar as written (after placeholder substitution); {@code null} text for an empty value or
 * {@code null}/{@code ~}.
 */
record YamlScalar(String text, Location location) implements YamlNode {

    boolean isNull() {
        return text == null;
    }

    @Override
    public String describe() {
        return text == null ? "nothing" : "'" + text + "'";
    }
}
