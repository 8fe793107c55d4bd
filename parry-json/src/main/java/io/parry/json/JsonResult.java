package io.parry.json;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpStatus;

/**
 * What a typed JSON endpoint answers when a plain 200 is not enough: a status, extra header fields
 * and an optional body, written as {@code application/json}. Immutable.
 *
 * <pre>{@code
 * JsonResult<Todo> created = JsonResult.created("/todos/" + todo.id(), todo);
 * JsonResult<Void> deleted = JsonResult.noContent();
 * JsonResult<Todo> cached = JsonResult.ok(todo).withHeader("cache-control", "max-age=60");
 * }</pre>
 *
 * @param <T> the body's type
 */
public final class JsonResult<T> {
    private final HttpStatus status;
    private final HttpHeaders headers;
    private final T body;

    private JsonResult(HttpStatus status, HttpHeaders headers, T body) {
        this.status = status;
        this.headers = headers;
        this.body = body;
    }

    /** A 200 with this body. */
    public static <T> JsonResult<T> ok(T body) {
        return of(HttpStatus.OK, body);
    }

    /** A 201 with a {@code Location} field naming the new resource, and this body (or none, if {@code null}). */
    public static <T> JsonResult<T> created(String location, T body) {
        return JsonResult.<T>of(HttpStatus.CREATED, body).withHeader("location", requireNonNull(location, "location"));
    }

    /** A 204 with no body. */
    public static <T> JsonResult<T> noContent() {
        return of(HttpStatus.NO_CONTENT);
    }

    /** A result with this status and no body. */
    public static <T> JsonResult<T> of(HttpStatus status) {
        return new JsonResult<>(requireNonNull(status, "status"), HttpHeaders.empty(), null);
    }

    /**
     * A result with this status and body ({@code null} for none).
     *
     * @throws IllegalArgumentException if the body is not {@code null} and the status forbids a body
     *     (1xx, 204, 304)
     */
    public static <T> JsonResult<T> of(HttpStatus status, T body) {
        requireNonNull(status, "status");
        if (body != null && status.forbidsBody()) {
            throw new IllegalArgumentException("body: not null (expected: null for status " + status.code() + ")");
        }
        return new JsonResult<>(status, HttpHeaders.empty(), body);
    }

    /**
     * A copy with this header field set to this value. A {@code Content-Type} replaces
     * {@code application/json} (for a JSON-based type); framing fields are the server's.
     */
    public JsonResult<T> withHeader(String name, String value) {
        return new JsonResult<>(status, headers.with(name, value), body);
    }

    /** The status. */
    public HttpStatus status() {
        return status;
    }

    /** The extra header fields. */
    public HttpHeaders headers() {
        return headers;
    }

    /** The body, or {@code null} for none. */
    public T body() {
        return body;
    }

    @Override
    public String toString() {
        return "JsonResult(" + status + ", " + headers + ", " + (body == null ? "no body" : "a body") + ")";
    }
}
