package io.parry.gateway.internal.config;

/** A node of a parsed YAML document that remembers where it was written. */
sealed interface YamlNode permits YamlMap, YamlList, YamlScalar {
    /** Where the node starts. */
    Location location();

    /** How the node is named in a type error: {@code a mapping}, {@code a list}, {@code nothing} or the quoted text. */
    String describe();
}
