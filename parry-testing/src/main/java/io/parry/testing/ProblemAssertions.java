package io.parry.testing;

import static java.util.Objects.requireNonNull;

/**
 * Entry points of the problem assertions; import statically next to AssertJ's {@code assertThat}.
 *
 * <pre>{@code
 * import static io.parry.testing.ProblemAssertions.assertThatProblem;
 *
 * assertThatProblem(connection.readResponse()).hasStatus(400).hasRequestId();
 * }</pre>
 */
public final class ProblemAssertions {
    private ProblemAssertions() {}

    /** Assertions on a problem read from a socket. */
    public static ProblemAssert assertThatProblem(RawResponse response) {
        requireNonNull(response, "response");
        return new ProblemAssert(
                response, response.status(), response.header("content-type"), response.bodyText(), null);
    }

    /** Assertions on a problem from a {@link HandlerTester}; a failure it was made from becomes the cause of a failed check. */
    public static ProblemAssert assertThatProblem(TestResponse response) {
        requireNonNull(response, "response");
        return new ProblemAssert(
                response,
                response.status(),
                response.header("content-type"),
                response.bodyText(),
                response.failure().orElse(null));
    }
}
