package io.parry.server;

import java.time.Duration;

/** Checks option values in {@code build()}, with messages that say what was expected. */
final class Validation {
    private Validation() {}

    static void positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
        }
    }

    static void notNegative(String name, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0, 0 disables)");
        }
    }

    static void port(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 0 to 65535, 0 for any free port)");
        }
    }
}
