package io.parry.testing;

import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import java.util.List;
import java.util.Optional;

/**
 * A response from a {@link HandlerTester}, complete with its body. Header fields are those the
 * handler set; no framing or {@code Date} fields are added.
 */
public final class TestResponse {
    private final String requestId;
    private final HttpStatus status;
    private final HttpHeaders headers;
    private final HttpData body;
    private final HttpHeaders trailers;
    private final Throwable failure;

    TestResponse(String requestId, HttpResponse response, HttpData body, HttpHeaders trailers, Throwable failure) {
        this.requestId = requestId;
        this.status = response.status();
        this.headers = response.headers();
        this.body = body;
        this.trailers = trailers;
        this.failure = failure;
    }

    /** The id the request had in its context, for example {@code test-1}. */
    public String requestId() {
        return requestId;
    }

    /** The status code. */
    public int status() {
        return status.code();
    }

    /** The status with its reason phrase. */
    public HttpStatus httpStatus() {
        return status;
    }

    /** The first value of the named header (case-insensitive), or {@code null}. */
    public String header(String name) {
        return headers.get(name);
    }

    /** Every value of the named header, in order. */
    public List<String> headers(String name) {
        return headers.getAll(name);
    }

    /** Every header field. */
    public HttpHeaders headers() {
        return headers;
    }

    /** The body bytes. */
    public byte[] body() {
        return body.toByteArray();
    }

    /** The body as UTF-8 text. */
    public String bodyText() {
        return body.toStringUtf8();
    }

    /** The trailer fields; empty when there are none. */
    public HttpHeaders trailers() {
        return trailers;
    }

    /**
     * The failure the handler threw or failed its stage with, when this response is the problem made
     * from it; empty when the handler answered.
     */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public String toString() {
        return status + " " + headers + " (" + body.length() + " bytes)"
                + (failure == null ? "" : ", from failure " + failure);
    }
}
