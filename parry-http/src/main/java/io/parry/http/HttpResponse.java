package io.parry.http;

import static java.util.Objects.requireNonNull;

import io.parry.http.internal.CompletedStage;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * An HTTP response: status, headers and a streaming body. Immutable; a response with a fixed body
 * can be built once and returned for many requests.
 *
 * <p>The server sets {@code Content-Length} or chunked framing from the body, and {@code Date}; a
 * handler sets only what it means.
 *
 * <pre>{@code
 * HttpResponse hello = HttpResponse.ofText("Hello, World!");
 * HttpResponse created = HttpResponse.builder(HttpStatus.CREATED)
 *         .header("location", "/todos/42")
 *         .body(MediaType.JSON, HttpData.ofUtf8("{\"id\":42}"))
 *         .build();
 * }</pre>
 */
public final class HttpResponse {
    private final HttpStatus status;
    private final HttpHeaders headers;
    private final HttpBody body;
    /** The version it came over when a client received it, else empty. */
    private final String protocol;
    /** Made on the first {@link #toStage()}; threads that race make equal stages, and one is kept. */
    private volatile CompletedStage<HttpResponse> stage;

    private HttpResponse(HttpStatus status, HttpHeaders headers, HttpBody body, String protocol) {
        this.status = status;
        this.headers = headers;
        this.body = body;
        this.protocol = protocol;
    }

    /** A response with this status, no headers and no body. */
    public static HttpResponse of(HttpStatus status) {
        return new HttpResponse(requireNonNull(status, "status"), HttpHeaders.empty(), HttpBody.empty(), "");
    }

    /** A response with this status, headers and body. */
    public static HttpResponse of(HttpStatus status, HttpHeaders headers, HttpBody body) {
        return received("", status, headers, body);
    }

    /**
     * A response as a client received it over this protocol version ({@code HTTP/1.1}, {@code HTTP/1.0},
     * {@code HTTP/2.0}), which {@link #protocol()} reports: a proxy names it in {@code Via}.
     */
    public static HttpResponse received(String protocol, HttpStatus status, HttpHeaders headers, HttpBody body) {
        return new HttpResponse(
                requireNonNull(status, "status"),
                requireNonNull(headers, "headers"),
                requireNonNull(body, "body"),
                requireNonNull(protocol, "protocol"));
    }

    /** A response with this status and a body of this media type. */
    public static HttpResponse of(HttpStatus status, MediaType type, HttpData data) {
        return of(status, contentType(type), HttpBody.of(data));
    }

    /** The common types' headers are built once: most responses carry one of them. */
    private static HttpHeaders contentType(MediaType type) {
        if (type == MediaType.PLAIN_TEXT_UTF_8) {
            return CommonHeaders.PLAIN_TEXT;
        }
        if (type == MediaType.JSON) {
            return CommonHeaders.JSON;
        }
        if (type == MediaType.PROBLEM_JSON) {
            return CommonHeaders.PROBLEM_JSON;
        }
        return HttpHeaders.of("content-type", type.toString());
    }

    /** A 200 response with this body of this media type. */
    public static HttpResponse of(MediaType type, HttpData data) {
        return of(HttpStatus.OK, type, data);
    }

    /** A 200 {@code text/plain; charset=utf-8} response. */
    public static HttpResponse ofText(String text) {
        return of(HttpStatus.OK, MediaType.PLAIN_TEXT_UTF_8, HttpData.ofUtf8(text));
    }

    /** A builder starting from this status. */
    public static Builder builder(HttpStatus status) {
        return new Builder(requireNonNull(status, "status"));
    }

    /** The status. */
    public HttpStatus status() {
        return status;
    }

    /** The header fields. */
    public HttpHeaders headers() {
        return headers;
    }

    /** The body. */
    public HttpBody body() {
        return body;
    }

    /**
     * The protocol version this response was received over, as {@code HTTP/1.1}, {@code HTTP/1.0} or {@code
     * HTTP/2.0}, when an HTTP client received it; empty for a response built here. Copies keep it.
     */
    public String protocol() {
        return protocol;
    }

    /**
     * This response as an already completed stage, for handlers that answer at once. The same stage
     * each time, so a response built once costs nothing per request; it cannot be changed ({@code
     * obtrudeValue} and {@code obtrudeException} throw {@link UnsupportedOperationException}).
     */
    public CompletionStage<HttpResponse> toStage() {
        CompletedStage<HttpResponse> made = stage;
        if (made == null) {
            made = new CompletedStage<>(this);
            stage = made;
        }
        return made;
    }

    /** A copy with this header field set to this value. */
    public HttpResponse withHeader(String name, String value) {
        return new HttpResponse(status, headers.with(name, value), body, protocol);
    }

    /** A copy whose headers are changed by the edits. */
    public HttpResponse mapHeaders(Consumer<HttpHeaders.Builder> edits) {
        return new HttpResponse(status, headers.map(edits), body, protocol);
    }

    /** A copy with this status. */
    public HttpResponse withStatus(HttpStatus status) {
        return new HttpResponse(requireNonNull(status, "status"), headers, body, protocol);
    }

    /** A copy with this body. */
    public HttpResponse withBody(HttpBody body) {
        return new HttpResponse(status, headers, requireNonNull(body, "body"), protocol);
    }

    /** A builder holding this response's parts. */
    public Builder toBuilder() {
        Builder builder = new Builder(status);
        builder.headers = headers.toBuilder();
        builder.body = body;
        builder.protocol = protocol;
        return builder;
    }

    @Override
    public String toString() {
        return "HttpResponse(" + status + ")";
    }

    /** Builds a response; not thread-safe. */
    public static final class Builder {
        private HttpStatus status;
        private HttpHeaders.Builder headers = HttpHeaders.builder();
        private HttpBody body = HttpBody.empty();
        private String protocol = "";

        private Builder(HttpStatus status) {
            this.status = status;
        }

        /** Sets the status. */
        public Builder status(HttpStatus status) {
            this.status = requireNonNull(status, "status");
            return this;
        }

        /** Adds a header field. */
        public Builder header(String name, String value) {
            headers.add(name, value);
            return this;
        }

        /** Sets the body. */
        public Builder body(HttpBody body) {
            this.body = requireNonNull(body, "body");
            return this;
        }

        /** Sets a fixed body and its {@code Content-Type}. */
        public Builder body(MediaType type, HttpData data) {
            headers.set("content-type", type.toString());
            return body(HttpBody.of(data));
        }

        /** The response. */
        public HttpResponse build() {
            return new HttpResponse(status, headers.build(), body, protocol);
        }
    }
}
