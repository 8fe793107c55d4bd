package io.parry.http;

import static java.util.Objects.requireNonNull;

/**
 * An RFC 9457 problem detail, the body of every error response Parry writes. It never carries a
 * stack trace or an exception's internal message; {@code detail} is only what a handler chose to
 * tell the client.
 *
 * <pre>{@code
 * HttpResponse response = Problem.of(HttpStatus.NOT_FOUND).detail("No todo 42.").toResponse();
 * }</pre>
 */
public final class Problem {
    private final HttpStatus status;
    private final String type;
    private final String title;
    private final String detail;
    private final String instance;
    private final String requestId;

    private Problem(HttpStatus status, String type, String title, String detail, String instance, String requestId) {
        this.status = status;
        this.type = type;
        this.title = title;
        this.detail = detail;
        this.instance = instance;
        this.requestId = requestId;
    }

    /** A problem for this status, titled with its reason phrase and typed {@code about:blank}. */
    public static Problem of(HttpStatus status) {
        requireNonNull(status, "status");
        return new Problem(status, "about:blank", status.reasonPhrase(), null, null, null);
    }

    /** A copy with this human-readable explanation for the client. */
    public Problem detail(String detail) {
        return new Problem(status, type, title, detail, instance, requestId);
    }

    /** A copy with this URI reference naming the occurrence, usually the request path. */
    public Problem instance(String instance) {
        return new Problem(status, type, title, detail, instance, requestId);
    }

    /** A copy carrying the request id, so a client's report can be found in the server's logs. */
    public Problem requestId(String requestId) {
        return new Problem(status, type, title, detail, instance, requestId);
    }

    /** A copy with this type URI and title. */
    public Problem type(String type, String title) {
        return new Problem(
                status, requireNonNull(type, "type"), requireNonNull(title, "title"), detail, instance, requestId);
    }

    /** The status. */
    public HttpStatus status() {
        return status;
    }

    /** The problem as {@code application/problem+json}. */
    public String toJson() {
        StringBuilder json = new StringBuilder(128).append('{');
        field(json, "type", type).append(',');
        field(json, "title", title).append(",\"status\":").append(status.code());
        if (detail != null) {
            field(json.append(','), "detail", detail);
        }
        if (instance != null) {
            field(json.append(','), "instance", instance);
        }
        if (requestId != null) {
            field(json.append(','), "requestId", requestId);
        }
        return json.append('}').toString();
    }

    /** A response with this problem's status and JSON body. */
    public HttpResponse toResponse() {
        return HttpResponse.of(status, MediaType.PROBLEM_JSON, HttpData.ofUtf8(toJson()));
    }

    private static StringBuilder field(StringBuilder json, String name, String value) {
        json.append('"').append(name).append("\":\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.append('"');
    }

    @Override
    public String toString() {
        return toJson();
    }
}
