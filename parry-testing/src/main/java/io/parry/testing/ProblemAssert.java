package io.parry.testing;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on an RFC 9457 problem response ({@code application/problem+json}), from a socket
 * ({@link RawResponse}) or a {@link HandlerTester} ({@link TestResponse}). Start with
 * {@link ProblemAssertions#assertThatProblem}. Every check first requires the problem media type and
 * a JSON object body; members are read by name, so their order and escaping do not matter.
 *
 * <pre>{@code
 * assertThatProblem(tester.get("/todos/42"))
 *         .hasStatus(404)
 *         .hasTitle("Not Found")
 *         .hasDetailContaining("todo 42")
 *         .hasRequestId();
 * }</pre>
 *
 * <p>When the response is a problem made from a handler's failure, a failed check carries that
 * failure as its cause, so an unexpected 500 shows its stack trace.
 */
public final class ProblemAssert extends AbstractAssert<ProblemAssert, Object> {
    private final int status;
    private final String contentType;
    private final String body;
    private final Throwable failure;
    private Map<String, Object> members;

    ProblemAssert(Object response, int status, String contentType, String body, Throwable failure) {
        super(response, ProblemAssert.class);
        this.status = status;
        this.contentType = contentType;
        this.body = body;
        this.failure = failure;
    }

    /** Checks that the response is {@code application/problem+json} with a JSON object body. */
    public ProblemAssert isProblem() {
        members();
        return this;
    }

    /** Checks the response status and, when the problem has one, its {@code status} member. */
    public ProblemAssert hasStatus(int expected) {
        Map<String, Object> problem = members();
        if (status != expected) {
            throw failure("Expected status " + expected + " but was " + status);
        }
        if (problem.containsKey("status") && !numberEquals(problem.get("status"), expected)) {
            throw failure("Expected the status member to be " + expected + " but was " + problem.get("status"));
        }
        return this;
    }

    /** Checks the response status and, when the problem has one, its {@code status} member. */
    public ProblemAssert hasStatus(HttpStatus expected) {
        return hasStatus(requireNonNull(expected, "expected").code());
    }

    /** Checks the {@code type} member; a problem without one has type {@code about:blank} (RFC 9457, section 3.1.1). */
    public ProblemAssert hasType(String expected) {
        Map<String, Object> problem = members();
        Object type = problem.containsKey("type") ? problem.get("type") : "about:blank";
        if (!Objects.equals(type, expected)) {
            throw failure("Expected type " + quote(expected) + " but was " + quote(type));
        }
        return this;
    }

    /** Checks the {@code title} member. */
    public ProblemAssert hasTitle(String expected) {
        return hasString("title", expected);
    }

    /** Checks the {@code detail} member. */
    public ProblemAssert hasDetail(String expected) {
        return hasString("detail", expected);
    }

    /** Checks that the {@code detail} member contains this text. */
    public ProblemAssert hasDetailContaining(String fragment) {
        requireNonNull(fragment, "fragment");
        String detail = string("detail");
        if (!detail.contains(fragment)) {
            throw failure("Expected detail to contain " + quote(fragment) + " but was " + quote(detail));
        }
        return this;
    }

    /** Checks that there is no {@code detail} member, as in a 500 that reveals nothing. */
    public ProblemAssert hasNoDetail() {
        Map<String, Object> problem = members();
        if (problem.containsKey("detail")) {
            throw failure("Expected no detail but was " + quote(problem.get("detail")));
        }
        return this;
    }

    /** Checks the {@code instance} member. */
    public ProblemAssert hasInstance(String expected) {
        return hasString("instance", expected);
    }

    /** Checks that the {@code requestId} member is a non-empty string. */
    public ProblemAssert hasRequestId() {
        if (string("requestId").isEmpty()) {
            throw failure("Expected a requestId but it was empty");
        }
        return this;
    }

    /** Checks the {@code requestId} member, for example against {@link TestResponse#requestId()}. */
    public ProblemAssert hasRequestId(String expected) {
        return hasString("requestId", expected);
    }

    /**
     * Checks an extension member, such as {@code "retryAfter": 5}: strings, booleans and {@code null}
     * compare with {@code equals}, numbers by value ({@code 5} equals {@code 5.0}).
     */
    public ProblemAssert hasMember(String name, Object expected) {
        requireNonNull(name, "name");
        Object value = member(name);
        boolean equal =
                expected instanceof Number ? numberEquals(value, (Number) expected) : Objects.equals(value, expected);
        if (!equal) {
            throw failure("Expected member " + name + " to be " + quote(expected) + " but was " + quote(value));
        }
        return this;
    }

    /**
     * Checks that the {@code errors} member lists a field error with this field path and message, as in
     * {@code "errors":[{"field":"title","message":"must not be blank"}]}.
     */
    public ProblemAssert hasFieldError(String field, String message) {
        requireNonNull(field, "field");
        requireNonNull(message, "message");
        Object errors = member("errors");
        if (errors instanceof List) {
            for (Object error : (List<?>) errors) {
                if (error instanceof Map
                        && field.equals(((Map<?, ?>) error).get("field"))
                        && message.equals(((Map<?, ?>) error).get("message"))) {
                    return this;
                }
            }
        }
        throw failure("Expected errors to list field " + quote(field) + " with message " + quote(message)
                + " but they were " + errors);
    }

    private ProblemAssert hasString(String name, String expected) {
        String value = string(name);
        if (!value.equals(expected)) {
            throw failure("Expected " + name + " " + quote(expected) + " but was " + quote(value));
        }
        return this;
    }

    private String string(String name) {
        Object value = member(name);
        if (!(value instanceof String)) {
            throw failure("Expected member " + name + " to be a string but was " + quote(value));
        }
        return (String) value;
    }

    private Object member(String name) {
        Map<String, Object> problem = members();
        if (!problem.containsKey(name)) {
            throw failure("Expected a member " + name + " but the problem has " + problem.keySet());
        }
        return problem.get(name);
    }

    private Map<String, Object> members() {
        isNotNull();
        if (members == null) {
            if (!isProblemType(contentType)) {
                throw failure("Expected a problem (application/problem+json) but the response had status " + status
                        + " and content-type " + contentType);
            }
            try {
                members = Json.parseObject(body);
            } catch (IllegalArgumentException e) {
                throw failure("Expected a JSON object body, but it is " + e.getMessage());
            }
        }
        return members;
    }

    private static boolean isProblemType(String contentType) {
        try {
            return contentType != null && MediaType.parse(contentType).is(MediaType.PROBLEM_JSON);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean numberEquals(Object value, Number expected) {
        return value instanceof BigDecimal && ((BigDecimal) value).compareTo(new BigDecimal(expected.toString())) == 0;
    }

    private static String quote(Object value) {
        return value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
    }

    private AssertionError failure(String message) {
        String description = info.descriptionText();
        StringBuilder text = new StringBuilder();
        if (description != null && !description.isEmpty()) {
            text.append('[').append(description).append("] ");
        }
        text.append(message)
                .append("\nin response: ")
                .append(actual)
                .append("\nwith body: ")
                .append(body);
        if (failure != null) {
            text.append("\nmade from the handler's failure: ").append(failure);
        }
        AssertionError error = new AssertionError(text.toString());
        if (failure != null) {
            error.initCause(failure);
        }
        return error;
    }
}
