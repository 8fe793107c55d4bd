package io.parry.server.routing;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.server.RequestContext;
import io.parry.server.routing.internal.Cookies;
import java.util.UUID;
import java.util.function.Function;

/**
 * Typed access to a request's path, query, header and cookie parameters. A missing required
 * parameter or a value of the wrong type fails with a 400 {@link HttpStatusException} whose detail
 * names the parameter (and never echoes the value), so handlers need no parsing code of their own.
 *
 * <pre>{@code
 * Handler listTodos = (ctx, request) -> {
 *     RequestParams params = RequestParams.of(ctx, request);
 *     long owner = params.pathLong("owner");
 *     int limit = params.queryInt("limit", 20);
 *     String tenant = params.header("x-tenant");
 *     return store.list(tenant, owner, limit).thenApply(Todos::toResponse);
 * };
 * }</pre>
 *
 * <p>Path parameters are the ones the router matched ({@link RequestContext#pathParams()}), already
 * percent-decoded; query parameters are decoded as a form ({@code +} is a space). Cheap to create; use
 * on any thread.
 */
public final class RequestParams {
    private final RequestContext ctx;
    private final HttpRequest request;

    private RequestParams(RequestContext ctx, HttpRequest request) {
        this.ctx = ctx;
        this.request = request;
    }

    /** The parameters of this request, with the path parameters of this context. */
    public static RequestParams of(RequestContext ctx, HttpRequest request) {
        return new RequestParams(requireNonNull(ctx, "ctx"), requireNonNull(request, "request"));
    }

    /**
     * The path parameter.
     *
     * @throws IllegalStateException if the route's pattern has no such parameter (a bug, so a 500)
     */
    public String path(String name) {
        String value = ctx.pathParams().get(requireNonNull(name, "name"));
        if (value == null) {
            throw new IllegalStateException(
                    "path parameter: " + name + " (expected: one the route's pattern names, one of "
                            + ctx.pathParams().keySet() + ")");
        }
        return value;
    }

    /** The path parameter as an {@code int}; 400 when it is not one. */
    public int pathInt(String name) {
        return convert("Path parameter", name, path(name), Integer::parseInt, "an integer");
    }

    /** The path parameter as a {@code long}; 400 when it is not one. */
    public long pathLong(String name) {
        return convert("Path parameter", name, path(name), Long::parseLong, "an integer");
    }

    /** The path parameter as a UUID; 400 when it is not one. */
    public UUID pathUuid(String name) {
        return convert("Path parameter", name, path(name), RequestParams::uuid, "a UUID");
    }

    /** The first query parameter of this name; 400 when it is missing. */
    public String query(String name) {
        return required("Query parameter", name, rawQuery(name));
    }

    /** The first query parameter of this name, or the default when it is missing. */
    public String query(String name, String defaultValue) {
        String value = rawQuery(name);
        return value != null ? value : defaultValue;
    }

    /** The query parameter as an {@code int}; 400 when it is missing or not one. */
    public int queryInt(String name) {
        return convert("Query parameter", name, query(name), Integer::parseInt, "an integer");
    }

    /** The query parameter as an {@code int}, or the default when it is missing; 400 when it is not one. */
    public int queryInt(String name, int defaultValue) {
        String value = rawQuery(name);
        return value == null ? defaultValue : convert("Query parameter", name, value, Integer::parseInt, "an integer");
    }

    /** The query parameter as a {@code long}; 400 when it is missing or not one. */
    public long queryLong(String name) {
        return convert("Query parameter", name, query(name), Long::parseLong, "an integer");
    }

    /** The query parameter as a {@code long}, or the default when it is missing; 400 when it is not one. */
    public long queryLong(String name, long defaultValue) {
        String value = rawQuery(name);
        return value == null ? defaultValue : convert("Query parameter", name, value, Long::parseLong, "an integer");
    }

    /**
     * The query parameter as a boolean ({@code true} or {@code false}, any case), or the default when
     * it is missing; 400 when it is something else.
     */
    public boolean queryBoolean(String name, boolean defaultValue) {
        String value = rawQuery(name);
        return value == null
                ? defaultValue
                : convert("Query parameter", name, value, RequestParams::bool, "true or false");
    }

    /** The first header field of this name; 400 when it is missing. */
    public String header(String name) {
        return required("Header", name, request.headers().get(requireNonNull(name, "name")));
    }

    /** The first header field of this name, or the default when it is missing. */
    public String header(String name, String defaultValue) {
        String value = request.headers().get(requireNonNull(name, "name"));
        return value != null ? value : defaultValue;
    }

    /** The cookie of this name from the {@code Cookie} field; 400 when it is missing. */
    public String cookie(String name) {
        return required("Cookie", name, Cookies.find(request.headers(), requireNonNull(name, "name")));
    }

    /** The cookie of this name, or the default when it is missing. */
    public String cookie(String name, String defaultValue) {
        String value = Cookies.find(request.headers(), requireNonNull(name, "name"));
        return value != null ? value : defaultValue;
    }

    private String rawQuery(String name) {
        return request.queryParam(requireNonNull(name, "name")).orElse(null);
    }

    private static String required(String kind, String name, String value) {
        if (value == null) {
            throw new HttpStatusException(HttpStatus.BAD_REQUEST, kind + " '" + name + "' is required.");
        }
        return value;
    }

    private static <T> T convert(String kind, String name, String value, Function<String, T> parser, String expected) {
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw new HttpStatusException(
                    HttpStatus.BAD_REQUEST, kind + " '" + name + "' must be " + expected + ".", e);
        }
    }

    private static UUID uuid(String value) {
        if (value.length() != 36) {
            throw new IllegalArgumentException("not a UUID");
        }
        return UUID.fromString(value);
    }

    private static boolean bool(String value) {
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("not a boolean");
    }
}
