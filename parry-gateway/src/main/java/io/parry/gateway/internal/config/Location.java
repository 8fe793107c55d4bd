package io.parry.gateway.internal.config;

/** A position in the configuration file as the user wrote it, 1-based. */
record Location(int line, int column) {
    static final Location START = new Location(1, 1);
}
