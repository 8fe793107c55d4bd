package io.parry.annotations.spi;

import io.parry.http.HttpRequest;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.server.RequestContext;
import io.parry.server.routing.RequestParams;
import java.util.UUID;
import java.util.function.Function;

/**
 * Reads and converts the arguments of generated controller routes; for generated code, not an API. A
 * missing required value or one that does not convert is a 400 {@link HttpStatusException} whose detail
 * names the parameter and never echoes the value, worded as {@link RequestParams} words them.
 */
public final class Arguments {
    /** The kind of a path parameter, as a 400's detail names it. */
    public static final String PATH = "Path parameter";
    /** The kind of a query parameter. */
    public static final String QUERY = "Query parameter";
    /** The kind of a header field. */
    public static final String HEADER = "Header";
    /** The kind of a cookie. */
    public static final String COOKIE = "Cookie";

    private Arguments() {}

    /** The path parameter the router matched; never {@code null} for a name of the route's pattern. */
    public static String path(RequestContext ctx, String name) {
        return ctx.pathParams().get(name);
    }

    /** The first query parameter of this name, or {@code null}. */
    public static String query(HttpRequest request, String name) {
        return request.queryParam(name).orElse(null);
    }

    /** The first header field of this name, or {@code null}. */
    public static String header(HttpRequest request, String name) {
        return request.headers().get(name);
    }

    /** The cookie of this name, or {@code null}. */
    public static String cookie(RequestContext ctx, HttpRequest request, String name) {
        return RequestParams.of(ctx, request).cookie(name, null);
    }

    /** The value; 400 when it is {@code null}. */
    public static String required(String kind, String name, String value) {
        if (value == null) {
            throw new HttpStatusException(HttpStatus.BAD_REQUEST, kind + " '" + name + "' is required.");
        }
        return value;
    }

    /** The value, or the default when it is {@code null}. */
    public static String orDefault(String value, String defaultValue) {
        return value != null ? value : defaultValue;
    }

    /** The value as an {@code int}; 400 when it is not one. */
    public static int toInt(String kind, String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw invalid(kind, name, "an integer", e);
        }
    }

    /** The value as a {@code long}; 400 when it is not one. */
    public static long toLong(String kind, String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw invalid(kind, name, "an integer", e);
        }
    }

    /** The value as a {@code double}; 400 when it is not one. */
    public static double toDouble(String kind, String name, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw invalid(kind, name, "a number", e);
        }
    }

    /** The value as a boolean ({@code true} or {@code false}, any case); 400 when it is something else. */
    public static boolean toBoolean(String kind, String name, String value) {
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw invalid(kind, name, "true or false", null);
    }

    /** The value as a UUID in its 36-character form; 400 when it is not one. */
    public static UUID toUuid(String kind, String name, String value) {
        try {
            if (value.length() != 36) {
                throw new IllegalArgumentException("not a UUID");
            }
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            throw invalid(kind, name, "a UUID", e);
        }
    }

    /** The value parsed by an enum's {@code valueOf}; 400 naming the constants when it is none of them. */
    public static <E extends Enum<E>> E toEnum(
            String kind, String name, String value, Function<String, E> valueOf, String constants) {
        try {
            return valueOf.apply(value);
        } catch (IllegalArgumentException e) {
            throw invalid(kind, name, "one of " + constants, e);
        }
    }

    private static HttpStatusException invalid(String kind, String name, String expected, Throwable cause) {
        return new HttpStatusException(
                HttpStatus.BAD_REQUEST, kind + " '" + name + "' must be " + expected + ".", cause);
    }
}
