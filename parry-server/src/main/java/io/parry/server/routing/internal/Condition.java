package io.parry.server.routing.internal;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A host, header or query predicate a route requires. Two conditions are equal when they test the
 * same thing for the same value, or share the same predicate object. A test allocates nothing.
 */
public final class Condition {
    private enum Kind {
        HOST,
        HEADER,
        QUERY
    }

    private final Kind kind;
    private final String name;
    private final String value;
    private final Predicate<String> test;
    private final boolean hostHasPort;

    private Condition(Kind kind, String name, String value, Predicate<String> test) {
        this.kind = kind;
        this.name = name;
        this.value = value;
        this.test = test;
        this.hostHasPort = kind == Kind.HOST && portAt(value) >= 0;
    }

    /**
     * The request's host ({@code Host}, or the absolute-form target's authority) must be this one,
     * compared case-insensitively; its port counts only when {@code host} names one.
     */
    public static Condition host(String host) {
        return new Condition(Kind.HOST, "host", requireNonNull(host, "host").toLowerCase(Locale.ROOT), null);
    }

    /** The first value of the header field must pass the test; a missing field fails. */
    public static Condition header(String name, String value, Predicate<String> test) {
        return new Condition(Kind.HEADER, requireNonNull(name, "name"), value, requireNonNull(test, "test"));
    }

    /** The first value of the query parameter must pass the test; a missing parameter fails. */
    public static Condition query(String name, String value, Predicate<String> test) {
        return new Condition(Kind.QUERY, requireNonNull(name, "name"), value, requireNonNull(test, "test"));
    }

    boolean test(HttpRequest request) {
        return switch (kind) {
            case HOST -> hostMatches(request.authority());
            case HEADER -> passes(request.headers().get(name));
            case QUERY -> passes(request.queryParam(name).orElse(null));
        };
    }

    private boolean passes(String actual) {
        return actual != null && test.test(actual);
    }

    private boolean hostMatches(String authority) {
        if (authority == null) {
            return false;
        }
        int end = authority.length();
        if (!hostHasPort) {
            int colon = portAt(authority);
            if (colon >= 0) {
                end = colon;
            }
        }
        return end == value.length() && authority.regionMatches(true, 0, value, 0, end);
    }

    /** The index of the colon before a port, or -1; an IPv6 literal's colons are inside brackets. */
    private static int portAt(String authority) {
        int colon = authority.lastIndexOf(':');
        return colon > authority.lastIndexOf(']') ? colon : -1;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Condition)) {
            return false;
        }
        Condition other = (Condition) o;
        return kind == other.kind
                && (kind == Kind.QUERY ? name.equals(other.name) : name.equalsIgnoreCase(other.name))
                && (value != null ? value.equals(other.value) : test == other.test);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, kind == Kind.QUERY ? name : name.toLowerCase(Locale.ROOT), value);
    }

    /** For example {@code host api.example.com}, {@code header x-api-version=2} or {@code query beta (predicate)}. */
    @Override
    public String toString() {
        if (kind == Kind.HOST) {
            return "host " + value;
        }
        return (kind == Kind.HEADER ? "header " : "query ") + name + (value != null ? "=" + value : " (predicate)");
    }
}
