package io.parry.benchmarks;

/**
 * Reads integer settings from environment variables, so the benchmark scripts configure every tool the same way.
 *
 * <p>A missing or empty variable yields the fallback; a malformed one fails fast with the variable's name, because
 * a benchmark silently run with a default it was not meant to use produces misleading figures.
 */
public final class Env {
    private Env() {}

    /**
     * Returns the variable {@code name} parsed as an {@code int}, or {@code fallback} when it is unset or empty.
     *
     * @throws IllegalArgumentException if the value is not a decimal integer
     */
    public static int intValue(String name, int fallback) {
        return Math.toIntExact(longValue(name, fallback));
    }

    /**
     * Returns the variable {@code name} parsed as a {@code long}, or {@code fallback} when it is unset or empty.
     *
     * @throws IllegalArgumentException if the value is not a decimal integer
     */
    public static long longValue(String name, long fallback) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: an integer)", e);
        }
    }
}
