package io.parry.http;

import static java.util.Objects.requireNonNull;

import io.parry.http.internal.QueryString;
import io.parry.http.internal.RequestTarget;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An HTTP request: method, target, headers and a streaming body. Immutable: the {@code with...}
 * methods return a changed copy that shares the body.
 *
 * <p>The path is normalised when the request is made: percent-encoded unreserved characters are
 * decoded and dot-segments removed, so {@code /a/%2e%2e/b} arrives as {@code /b}; reserved
 * characters such as {@code %2F} stay encoded.
 *
 * <pre>{@code
 * HttpRequest request = HttpRequest.builder(HttpMethod.POST, "/todos")
 *         .header("content-type", "application/json")
 *         .body(HttpBody.ofUtf8("{\"title\":\"milk\"}"))
 *         .build();
 * }</pre>
 */
public final class HttpRequest {
    private final HttpMethod method;
    private final String target;
    private final String path;
    private final String query;
    private final HttpHeaders headers;
    private final HttpBody body;

    private HttpRequest(
            HttpMethod method, String target, String path, String query, HttpHeaders headers, HttpBody body) {
        this.method = method;
        this.target = target;
        this.path = path;
        this.query = query;
        this.headers = headers;
        this.body = body;
    }

    /**
     * A builder for a request to this target (origin-form such as {@code /a?b=c}, absolute-form, or
     * {@code *}).
     *
     * @throws IllegalArgumentException if the target is malformed
     */
    public static Builder builder(HttpMethod method, String target) {
        return new Builder(method, target);
    }

    /** A request with no headers and no body. */
    public static HttpRequest of(HttpMethod method, String target) {
        return builder(method, target).build();
    }

    /** The method. */
    public HttpMethod method() {
        return method;
    }

    /**
     * The request-target as it was given, before normalisation; on a Parry server, as its listener's path
     * normalisation left it.
     */
    public String target() {
        return target;
    }

    /** The normalised path, for example {@code /todos/42}; {@code *} for {@code OPTIONS *}. */
    public String path() {
        return path;
    }

    /** The raw query after {@code ?}, empty when there is none. */
    public String query() {
        return query;
    }

    /** The decoded value of the first query parameter with this name. */
    public Optional<String> queryParam(String name) {
        return Optional.ofNullable(QueryString.first(query, requireNonNull(name, "name")));
    }

    /** The decoded values of every query parameter with this name. */
    public List<String> queryParams(String name) {
        return QueryString.all(query, requireNonNull(name, "name"));
    }

    /** The header fields. */
    public HttpHeaders headers() {
        return headers;
    }

    /** The host and port the request is for, from the {@code Host} field, or {@code null}. */
    public String authority() {
        return headers.get("host");
    }

    /** The body; read it at most once. */
    public HttpBody body() {
        return body;
    }

    /** A copy with these headers. */
    public HttpRequest withHeaders(HttpHeaders headers) {
        return new HttpRequest(method, target, path, query, requireNonNull(headers, "headers"), body);
    }

    /** A copy whose headers are changed by the edits. */
    public HttpRequest mapHeaders(Consumer<HttpHeaders.Builder> edits) {
        return withHeaders(headers.map(edits));
    }

    /** A copy with this body. */
    public HttpRequest withBody(HttpBody body) {
        return new HttpRequest(method, target, path, query, headers, requireNonNull(body, "body"));
    }

    /**
     * A copy with another target; the new path is normalised, and an absolute-form target's authority
     * replaces the {@code Host} field, as in {@link #builder}.
     */
    public HttpRequest withTarget(String target) {
        RequestTarget parsed = RequestTarget.parse(requireNonNull(target, "target"));
        return new HttpRequest(method, target, parsed.path(), parsed.query(), hostFor(parsed, headers), body);
    }

    /** RFC 9112, section 3.2.2: an absolute-form target's authority replaces any Host field. */
    private static HttpHeaders hostFor(RequestTarget target, HttpHeaders headers) {
        String authority = target.authority();
        if (authority == null || headers.getAll("host").equals(List.of(authority))) {
            return headers;
        }
        return headers.with("host", authority);
    }

    @Override
    public String toString() {
        return method + " " + target;
    }

    /** Builds a request; not thread-safe. */
    public static final class Builder {
        private final HttpMethod method;
        private final String target;
        private final RequestTarget parsed;
        private HttpHeaders.Builder headers;
        private HttpHeaders builtHeaders = HttpHeaders.empty();
        private HttpBody body = HttpBody.empty();

        private Builder(HttpMethod method, String target) {
            this.method = requireNonNull(method, "method");
            this.target = requireNonNull(target, "target");
            this.parsed = RequestTarget.parse(target);
        }

        /** Adds a header field. */
        public Builder header(String name, String value) {
            if (headers == null) {
                headers = builtHeaders.toBuilder();
            }
            headers.add(name, value);
            return this;
        }

        /** Replaces every header field with these. */
        public Builder headers(HttpHeaders headers) {
            this.builtHeaders = requireNonNull(headers, "headers");
            this.headers = null;
            return this;
        }

        /** Sets the body (empty by default). */
        public Builder body(HttpBody body) {
            this.body = requireNonNull(body, "body");
            return this;
        }

        /** The request. */
        public HttpRequest build() {
            HttpHeaders all = hostFor(parsed, headers == null ? builtHeaders : headers.build());
            return new HttpRequest(method, target, parsed.path(), parsed.query(), all, body);
        }
    }
}
