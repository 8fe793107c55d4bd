package io.parry.http;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Objects;

/**
 * An RFC 9457 problem detail, the body of every error response Parry writes. It never carries a
 * stack trace or an exception's internal message; {@code detail} is only what a handler chose to
 * tell the client.
 *
 * <p>A problem about invalid input can list the fields at fault in an {@code errors} member, each
 * with its path, a message and, when the client sent one, the value that was rejected:
 *
 * <pre>{@code
 * HttpResponse response = Problem.of(HttpStatus.NOT_FOUND).detail("No todo 42.").toResponse();
 * HttpResponse invalid = Problem.of(HttpStatus.BAD_REQUEST)
 *         .detail("The request content is invalid.")
 *         .errors(List.of(Problem.FieldError.of("title", "must not be blank", "")))
 *         .toResponse();
 * // {"type":"about:blank",...,"errors":[{"field":"title","message":"must not be blank","rejectedValue":""}]}
 * }</pre>
 */
public final class Problem {
    private final HttpStatus status;
    private final String type;
    private final String title;
    private final String detail;
    private final String instance;
    private final String requestId;
    private final List<FieldError> errors;

    private Problem(
            HttpStatus status,
            String type,
            String title,
            String detail,
            String instance,
            String requestId,
            List<FieldError> errors) {
        this.status = status;
        this.type = type;
        this.title = title;
        this.detail = detail;
        this.instance = instance;
        this.requestId = requestId;
        this.errors = errors;
    }

    /** A problem for this status, titled with its reason phrase and typed {@code about:blank}. */
    public static Problem of(HttpStatus status) {
        requireNonNull(status, "status");
        return new Problem(status, "about:blank", status.reasonPhrase(), null, null, null, List.of());
    }

    /** A copy with this human-readable explanation for the client. */
    public Problem detail(String detail) {
        return new Problem(status, type, title, detail, instance, requestId, errors);
    }

    /** A copy with this URI reference naming the occurrence, usually the request path. */
    public Problem instance(String instance) {
        return new Problem(status, type, title, detail, instance, requestId, errors);
    }

    /** A copy carrying the request id, so a client's report can be found in the server's logs. */
    public Problem requestId(String requestId) {
        return new Problem(status, type, title, detail, instance, requestId, errors);
    }

    /** A copy with this type URI and title. */
    public Problem type(String type, String title) {
        return new Problem(
                status,
                requireNonNull(type, "type"),
                requireNonNull(title, "title"),
                detail,
                instance,
                requestId,
                errors);
    }

    /**
     * A copy listing these fields at fault, written as the {@code errors} member in the given order
     * (left out when the list is empty).
     */
    public Problem errors(List<FieldError> errors) {
        return new Problem(status, type, title, detail, instance, requestId, List.copyOf(errors));
    }

    /** The status. */
    public HttpStatus status() {
        return status;
    }

    /** The fields at fault; empty unless {@link #errors(List)} set some. */
    public List<FieldError> errors() {
        return errors;
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
        if (!errors.isEmpty()) {
            json.append(",\"errors\":[");
            for (int i = 0; i < errors.size(); i++) {
                errors.get(i).appendTo(i == 0 ? json : json.append(','));
            }
            json.append(']');
        }
        return json.append('}').toString();
    }

    /** A response with this problem's status and JSON body. */
    public HttpResponse toResponse() {
        return HttpResponse.of(status, MediaType.PROBLEM_JSON, HttpData.ofUtf8(toJson()));
    }

    private static StringBuilder field(StringBuilder json, String name, String value) {
        return string(json.append('"').append(name).append("\":"), value);
    }

    private static StringBuilder string(StringBuilder json, String value) {
        json.append('"');
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

    /**
     * One field at fault in a problem about invalid input: its path in the request content (for
     * example {@code title}, {@code address.city} or {@code items[2].quantity}), a message for the
     * client and, optionally, the value that was rejected. A rejected value is {@code null} or a
     * scalar (a string, number, boolean, character or enum constant), so that the problem never
     * echoes a whole object.
     */
    public static final class FieldError {
        private static final Object NONE = new Object();

        private final String field;
        private final String message;
        private final Object rejectedValue;

        private FieldError(String field, String message, Object rejectedValue) {
            this.field = requireNonNull(field, "field");
            this.message = requireNonNull(message, "message");
            this.rejectedValue = rejectedValue;
        }

        /** A field error without a rejected value. */
        public static FieldError of(String field, String message) {
            return new FieldError(field, message, NONE);
        }

        /**
         * A field error with the value that was rejected, which may be {@code null}.
         *
         * @throws IllegalArgumentException if the value is not {@code null} or a scalar (see {@link
         *     #isScalar(Object)})
         */
        public static FieldError of(String field, String message, Object rejectedValue) {
            if (!isScalar(rejectedValue)) {
                throw new IllegalArgumentException(
                        "rejectedValue: a " + rejectedValue.getClass().getName()
                                + " (expected: null, CharSequence, Number, Boolean, Character or Enum)");
            }
            return new FieldError(field, message, rejectedValue);
        }

        /**
         * Whether a value can be a rejected value: {@code null}, a {@link CharSequence}, {@link Number},
         * {@link Boolean}, {@link Character} or {@link Enum} constant (written as its name).
         */
        public static boolean isScalar(Object value) {
            return value == null
                    || value instanceof CharSequence
                    || value instanceof Number
                    || value instanceof Boolean
                    || value instanceof Character
                    || value instanceof Enum;
        }

        /** The path of the field in the request content; empty for the content as a whole. */
        public String field() {
            return field;
        }

        /** The message for the client. */
        public String message() {
            return message;
        }

        /** Whether this error carries a rejected value (which may be {@code null}). */
        public boolean hasRejectedValue() {
            return rejectedValue != NONE;
        }

        /** The rejected value, or {@code null} when there is none or it was {@code null}. */
        public Object rejectedValue() {
            return rejectedValue == NONE ? null : rejectedValue;
        }

        private void appendTo(StringBuilder json) {
            Problem.field(json.append('{'), "field", field);
            Problem.field(json.append(','), "message", message);
            if (rejectedValue != NONE) {
                json.append(",\"rejectedValue\":");
                scalar(json, rejectedValue);
            }
            json.append('}');
        }

        /** Numbers JSON cannot write (NaN, infinities) and non-JDK number types are written as strings. */
        private static void scalar(StringBuilder json, Object value) {
            if (value == null) {
                json.append("null");
            } else if (value instanceof Boolean || isFiniteJdkNumber(value)) {
                json.append(value);
            } else if (value instanceof Enum) {
                string(json, ((Enum<?>) value).name());
            } else {
                string(json, value.toString());
            }
        }

        private static boolean isFiniteJdkNumber(Object value) {
            if (value instanceof Double || value instanceof Float) {
                return Double.isFinite(((Number) value).doubleValue());
            }
            return value instanceof Integer
                    || value instanceof Long
                    || value instanceof Short
                    || value instanceof Byte
                    || value instanceof BigInteger
                    || value instanceof BigDecimal;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof FieldError)) {
                return false;
            }
            FieldError other = (FieldError) o;
            return field.equals(other.field)
                    && message.equals(other.message)
                    && Objects.equals(rejectedValue, other.rejectedValue);
        }

        @Override
        public int hashCode() {
            return (field.hashCode() * 31 + message.hashCode()) * 31 + Objects.hashCode(rejectedValue);
        }

        /** The error as it appears in a problem's {@code errors} member. */
        @Override
        public String toString() {
            StringBuilder json = new StringBuilder(64);
            appendTo(json);
            return json.toString();
        }
    }
}
