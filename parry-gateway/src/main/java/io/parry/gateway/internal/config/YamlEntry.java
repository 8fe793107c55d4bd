package io.parry.gateway.internal.config;

/** A key of a YAML mapping, where the key was written, and its value. */
record YamlEntry(String key, Location keyLocation, YamlNode value) {}
