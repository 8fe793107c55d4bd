package io.parry.server.routing.internal;

import static java.util.Objects.requireNonNull;

import io.parry.http.AddressBlocks;
import io.parry.http.ClientAddress;
import io.parry.http.HttpRequest;
import io.parry.server.RequestContext;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A host, header, query, cookie or client address predicate a route requires. Two conditions are
 * equal when they test the same thing for the same value, or share the same predicate object. A test
 * allocates nothing, except to decode an escaped query, to run a predicate and to read a client address.
 */
public final class Condition {
    private enum Kind {
        HOST,
        HEADER,
        QUERY,
        COOKIE,
        CLIENT_ADDRESS
    }

    private final Kind kind;
    private final String name;
    private final String value;
    private final Predicate<String> test;
    private final boolean hostHasPort;
    private final AddressBlocks clients;
    private final AddressBlocks trustedProxies;

    private Condition(Kind kind, String name, String value, Predicate<String> test) {
        this(kind, name, value, test, null, null);
    }

    private Condition(
            Kind kind,
            String name,
            String value,
            Predicate<String> test,
            AddressBlocks clients,
            AddressBlocks trustedProxies) {
        this.kind = kind;
        this.name = name;
        this.value = value;
        this.test = test;
        this.hostHasPort = kind == Kind.HOST && portAt(value) >= 0;
        this.clients = clients;
        this.trustedProxies = trustedProxies;
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

    /** The query parameter must be there, with any value (an empty one included). */
    public static Condition queryPresent(String name) {
        return new Condition(Kind.QUERY, requireNonNull(name, "name"), null, null);
    }

    /** The first cookie of this name must have exactly this value. */
    public static Condition cookie(String name, String value) {
        return new Condition(Kind.COOKIE, requireNonNull(name, "name"), requireNonNull(value, "value"), null);
    }

    /** The client's address, after trusted proxies ({@link ClientAddress#behind}), must be in one of the blocks. */
    public static Condition clientAddress(AddressBlocks clients, AddressBlocks trustedProxies) {
        requireNonNull(clients, "clients");
        requireNonNull(trustedProxies, "trustedProxies");
        return new Condition(Kind.CLIENT_ADDRESS, "clientAddress", null, null, clients, trustedProxies);
    }

    /** Whether the request meets the condition; {@code ctx} is {@code null} when there is no connection, and then a client address condition fails. */
    boolean test(RequestContext ctx, HttpRequest request) {
        return switch (kind) {
            case HOST -> hostMatches(request.authority());
            case HEADER -> passes(request.headers().get(name));
            case QUERY -> test != null && value == null
                    ? passes(request.queryParam(name).orElse(null))
                    : RequestFacts.queryHas(request, name, value);
            case COOKIE -> RequestFacts.cookieIs(request.headers(), name, value);
            case CLIENT_ADDRESS -> ctx != null
                    && clients.contains(ClientAddress.behind(trustedProxies, ctx.remoteAddress(), request.headers()));
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
        if (!(o instanceof Condition other)) {
            return false;
        }
        return kind == other.kind
                && (caseSensitiveName() ? name.equals(other.name) : name.equalsIgnoreCase(other.name))
                && (value != null ? value.equals(other.value) : other.value == null && test == other.test)
                && Objects.equals(clients, other.clients)
                && Objects.equals(trustedProxies, other.trustedProxies);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, caseSensitiveName() ? name : name.toLowerCase(Locale.ROOT), value, clients);
    }

    private boolean caseSensitiveName() {
        return kind == Kind.QUERY || kind == Kind.COOKIE;
    }

    /**
     * For example {@code host api.example.com}, {@code header x-api-version=2}, {@code query beta},
     * {@code cookie canary=always} or {@code clientAddress [10.0.0.0/8]}.
     */
    @Override
    public String toString() {
        return switch (kind) {
            case HOST -> "host " + value;
            case CLIENT_ADDRESS -> "clientAddress " + clients;
            default -> kind.name().toLowerCase(Locale.ROOT) + " " + name
                    + (value != null ? "=" + value : test != null ? " (predicate)" : "");
        };
    }
}
