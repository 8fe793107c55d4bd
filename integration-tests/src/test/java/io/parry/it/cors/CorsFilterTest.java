package io.parry.it.cors;

import static io.parry.testing.ProblemAssertions.assertThatProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpData;
import io.parry.http.HttpMethod;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.MediaType;
import io.parry.http.Problem;
import io.parry.server.ErrorHandler;
import io.parry.server.Handler;
import io.parry.server.cors.CorsFilter;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class CorsFilterTest {
    private static final AtomicInteger calls = new AtomicInteger();

    private static final Handler TODOS = (ctx, request) -> {
        calls.incrementAndGet();
        if (request.path().equals("/todos/42")) {
            throw new HttpStatusException(HttpStatus.NOT_FOUND, "No todo 42.");
        }
        return HttpResponse.builder(HttpStatus.OK)
                .header("location", "/todos/1")
                .header("vary", "Accept-Encoding")
                .body(MediaType.JSON, HttpData.ofUtf8("[]"))
                .build()
                .toStage();
    };

    /** Answers status failures inside the CORS filter, so that scripts can read the problems. */
    private static final ErrorHandler PROBLEMS = (ctx, request, cause) -> cause instanceof HttpStatusException
            ? Problem.of(((HttpStatusException) cause).status())
                    .detail(((HttpStatusException) cause).detail())
                    .requestId(ctx.requestId())
                    .instance(request.path())
                    .toResponse()
            : null;

    private static final CorsFilter CORS = CorsFilter.builder()
            .allowOrigins("https://app.example")
            .allowMethods(HttpMethod.PUT, HttpMethod.DELETE)
            .allowHeaders("content-type", "authorization")
            .exposeHeaders("location")
            .allowCredentials(true)
            .maxAge(Duration.ofMinutes(10))
            .build();

    @RegisterExtension
    static final ServerExtension server =
            ServerExtension.of(TODOS.with(PROBLEMS.asFilter()).with(CORS));

    @BeforeEach
    void resetCalls() {
        calls.set(0);
    }

    @Test
    void answersAPreflightWithoutReachingTheHandler() {
        try (RawConnection connection = server.connect()) {
            connection.send(
                    """
                    OPTIONS /todos HTTP/1.1
                    Host: api.example
                    Origin: https://app.example
                    Access-Control-Request-Method: PUT
                    Access-Control-Request-Headers: authorization,content-type

                    """);
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(204);
            assertThat(response.header("access-control-allow-origin")).isEqualTo("https://app.example");
            assertThat(response.header("access-control-allow-credentials")).isEqualTo("true");
            assertThat(response.header("access-control-allow-methods")).isEqualTo("PUT, DELETE, GET, HEAD, POST");
            assertThat(response.header("access-control-allow-headers")).isEqualTo("authorization, content-type");
            assertThat(response.header("access-control-max-age")).isEqualTo("600");
            assertThat(response.header("vary"))
                    .isEqualTo("Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
            assertThat(response.header("content-length")).isNull();
            assertThat(response.body()).isEmpty();
        }
        assertThat(calls).hasValue(0);
    }

    @Test
    void refusesAPreflightFromAnotherOriginWithAProblemAndNoCorsFields() {
        RawResponse response = preflight("https://evil.example", "PUT");

        assertThatProblem(response)
                .hasStatus(403)
                .hasDetail("The origin https://evil.example is not allowed.")
                .hasInstance("/todos")
                .hasRequestId();
        assertThat(response.header("access-control-allow-origin")).isNull();
        assertThat(calls).hasValue(0);
    }

    @Test
    void refusesAPreflightForAMethodNotAllowed() {
        assertThatProblem(preflight("https://app.example", "PATCH"))
                .hasStatus(HttpStatus.FORBIDDEN)
                .hasDetail("The method PATCH is not allowed.");
    }

    @Test
    void addsCorsFieldsToTheActualRequest() {
        try (RawConnection connection = server.connect()) {
            connection.send(
                    """
                    PUT /todos HTTP/1.1
                    Host: api.example
                    Origin: https://app.example
                    Content-Length: 0

                    """);
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("[]");
            assertThat(response.header("access-control-allow-origin")).isEqualTo("https://app.example");
            assertThat(response.header("access-control-allow-credentials")).isEqualTo("true");
            assertThat(response.header("access-control-expose-headers")).isEqualTo("location");
            assertThat(response.headers("vary")).containsExactly("Accept-Encoding", "Origin");
        }
        assertThat(calls).hasValue(1);
    }

    @Test
    void answersAPreflightAndItsRequestPipelinedOnOneConnection() {
        try (RawConnection connection = server.connect()) {
            connection.send(
                    """
                    OPTIONS /todos HTTP/1.1
                    Host: api.example
                    Origin: https://app.example
                    Access-Control-Request-Method: DELETE

                    DELETE /todos HTTP/1.1
                    Host: api.example
                    Origin: https://app.example

                    """);

            assertThat(connection.readResponse().status()).isEqualTo(204);
            RawResponse actual = connection.readResponse();
            assertThat(actual.status()).isEqualTo(200);
            assertThat(actual.header("access-control-allow-origin")).isEqualTo("https://app.example");
        }
        assertThat(calls).hasValue(1);
    }

    @Test
    void letsScriptsReadProblemsAnsweredInsideTheFilter() {
        try (RawConnection connection = server.connect()) {
            connection.send(
                    """
                    GET /todos/42 HTTP/1.1
                    Host: api.example
                    Origin: https://app.example

                    """);
            RawResponse response = connection.readResponse();

            assertThatProblem(response).hasStatus(404).hasDetail("No todo 42.");
            assertThat(response.header("access-control-allow-origin")).isEqualTo("https://app.example");
        }
    }

    @Test
    void passesARequestWithoutOriginAddingOnlyVary() throws Exception {
        java.net.http.HttpResponse<String> response = server.client()
                .send(HttpRequest.newBuilder(server.uri("/todos")).build(), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().allValues("vary")).containsExactly("Accept-Encoding", "Origin");
        assertThat(response.headers().firstValue("access-control-allow-origin")).isEmpty();
        assertThat(calls).hasValue(1);
    }

    @Test
    void passesARequestFromAnotherOriginWithoutCorsFields() {
        try (RawConnection connection = server.connect()) {
            connection.send(
                    """
                    GET /todos HTTP/1.1
                    Host: api.example
                    Origin: https://evil.example

                    """);
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("access-control-allow-origin")).isNull();
            assertThat(response.header("access-control-allow-credentials")).isNull();
        }
    }

    private static RawResponse preflight(String origin, String method) {
        try (RawConnection connection = server.connect()) {
            connection.send("OPTIONS /todos HTTP/1.1\nHost: api.example\nOrigin: " + origin
                    + "\nAccess-Control-Request-Method: " + method + "\n\n");
            return connection.readResponse();
        }
    }
}
