package io.parry.http;

import static java.util.Objects.requireNonNull;

/**
 * An HTTP request method (RFC 9110, section 9). The standard methods are constants and compare by
 * identity cheaply; {@link #of(String)} returns them for their names and creates a value for any
 * other valid token.
 */
public final class HttpMethod {
    public static final HttpMethod GET = new HttpMethod("GET", true, true);
    public static final HttpMethod HEAD = new HttpMethod("HEAD", true, true);
    public static final HttpMethod POST = new HttpMethod("POST", false, false);
    public static final HttpMethod PUT = new HttpMethod("PUT", false, true);
    public static final HttpMethod DELETE = new HttpMethod("DELETE", false, true);
    public static final HttpMethod CONNECT = new HttpMethod("CONNECT", false, false);
    public static final HttpMethod OPTIONS = new HttpMethod("OPTIONS", true, true);
    public static final HttpMethod TRACE = new HttpMethod("TRACE", true, true);
    public static final HttpMethod PATCH = new HttpMethod("PATCH", false, false);

    private final String name;
    private final boolean safe;
    private final boolean idempotent;

    private HttpMethod(String name, boolean safe, boolean idempotent) {
        this.name = name;
        this.safe = safe;
        this.idempotent = idempotent;
    }

    /**
     * Returns the method with this name (case-sensitive, as RFC 9110 says).
     *
     * @throws IllegalArgumentException if the name is not an HTTP token
     */
    public static HttpMethod of(String name) {
        requireNonNull(name, "name");
        HttpMethod standard = standard(name);
        if (standard != null) {
            return standard;
        }
        if (!HttpTokens.isToken(name)) {
            throw new IllegalArgumentException("method: " + name + " (expected: an HTTP token)");
        }
        return new HttpMethod(name, false, false);
    }

    private static HttpMethod standard(String name) {
        switch (name) {
            case "GET":
                return GET;
            case "HEAD":
                return HEAD;
            case "POST":
                return POST;
            case "PUT":
                return PUT;
            case "DELETE":
                return DELETE;
            case "CONNECT":
                return CONNECT;
            case "OPTIONS":
                return OPTIONS;
            case "TRACE":
                return TRACE;
            case "PATCH":
                return PATCH;
            default:
                return null;
        }
    }

    /** The method's name, for example {@code GET}. */
    public String name() {
        return name;
    }

    /** Whether the method is safe (read-only) per RFC 9110, section 9.2.1. */
    public boolean isSafe() {
        return safe;
    }

    /** Whether repeating the request has the same effect as sending it once (RFC 9110, section 9.2.2). */
    public boolean isIdempotent() {
        return idempotent;
    }

    @Override
    public boolean equals(Object o) {
        return o == this || (o instanceof HttpMethod && ((HttpMethod) o).name.equals(name));
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
