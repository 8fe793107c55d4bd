package io.parry.server.routing.internal;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A header or query predicate a route requires. Two conditions are equal when they test the same
 * field for the same value, or share the same predicate object.
 */
public final class Condition {
    private final boolean header;
    private final String name;
    private final String value;
    private final Predicate<String> test;

    private Condition(boolean header, String name, String value, Predicate<String> test) {
        this.header = header;
        this.name = name;
        this.value = value;
        this.test = test;
    }

    /** The first value of the header field must pass the test; a missing field fails. */
    public static Condition header(String name, String value, Predicate<String> test) {
        return new Condition(true, requireNonNull(name, "name"), value, requireNonNull(test, "test"));
    }

    /** The first value of the query parameter must pass the test; a missing parameter fails. */
    public static Condition query(String name, String value, Predicate<String> test) {
        return new Condition(false, requireNonNull(name, "name"), value, requireNonNull(test, "test"));
    }

    boolean test(HttpRequest request) {
        String actual =
                header ? request.headers().get(name) : request.queryParam(name).orElse(null);
        return actual != null && test.test(actual);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Condition)) {
            return false;
        }
        Condition other = (Condition) o;
        return header == other.header
                && (header ? name.equalsIgnoreCase(other.name) : name.equals(other.name))
                && (value != null ? value.equals(other.value) : test == other.test);
    }

    @Override
    public int hashCode() {
        return Objects.hash(header, header ? name.toLowerCase(Locale.ROOT) : name, value);
    }

    /** For example {@code header x-api-version=2} or {@code query beta (predicate)}. */
    @Override
    public String toString() {
        return (header ? "header " : "query ") + name + (value != null ? "=" + value : " (predicate)");
    }
}
