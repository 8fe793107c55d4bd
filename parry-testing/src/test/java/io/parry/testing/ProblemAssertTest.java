package io.parry.testing;

import static io.parry.testing.ProblemAssertions.assertThatProblem;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.server.Handler;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProblemAssertTest {
    private static final Handler TODOS = (ctx, request) -> {
        if (request.path().equals("/todos/42")) {
            throw new HttpStatusException(HttpStatus.NOT_FOUND, "No todo 42.");
        }
        if (request.path().equals("/boom")) {
            throw new IllegalStateException("database is down");
        }
        return HttpResponse.ofText("fine").toStage();
    };

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(TODOS);

    @RegisterExtension
    static final HandlerTester tester = HandlerTester.of(TODOS);

    @Test
    void checksAProblemReadFromASocket() {
        try (RawConnection connection = server.connect()) {
            connection.send(
                    """
                    GET /todos/42 HTTP/1.1
                    Host: localhost

                    """);
            RawResponse response = connection.readResponse();

            assertThatProblem(response)
                    .isProblem()
                    .hasStatus(404)
                    .hasStatus(HttpStatus.NOT_FOUND)
                    .hasType("about:blank")
                    .hasTitle("Not Found")
                    .hasDetail("No todo 42.")
                    .hasDetailContaining("todo 42")
                    .hasInstance("/todos/42")
                    .hasRequestId();
        }
    }

    @Test
    void checksAProblemFromTheHandlerTester() {
        TestResponse response = tester.get("/todos/42");

        assertThatProblem(response)
                .hasStatus(404)
                .hasTitle("Not Found")
                .hasDetailContaining("todo 42")
                .hasRequestId(response.requestId());
    }

    @Test
    void checksThatA500RevealsNothing() {
        assertThatProblem(tester.get("/boom")).hasStatus(500).hasNoDetail().hasRequestId();
    }

    @Test
    void carriesTheHandlersFailureWhenACheckFails() {
        assertThatThrownBy(() -> assertThatProblem(tester.get("/boom")).hasStatus(404))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("Expected status 404 but was 500")
                .hasMessageContaining("made from the handler's failure: java.lang.IllegalStateException")
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void readsMembersInAnyOrderWithEscapesAndSpaces() {
        RawResponse response = raw(
                422,
                "application/problem+json; charset=utf-8",
                """
                {
                  "requestId" : "r-1",
                  "detail" : "Title \\"milk\\" is \\u0074aken\\n",
                  "status" : 422.0,
                  "title" : "Unprocessable Content",
                  "type" : "https://parry.io/problems/taken",
                  "retryAfter": 5,
                  "errors": [{"field":"title","message":"must be unique","rejectedValue":"milk"}]
                }
                """);

        assertThatProblem(response)
                .hasStatus(422)
                .hasType("https://parry.io/problems/taken")
                .hasDetail("Title \"milk\" is taken\n")
                .hasRequestId("r-1")
                .hasMember("retryAfter", 5)
                .hasMember("retryAfter", 5.0)
                .hasFieldError("title", "must be unique");
    }

    @Test
    void failsWhenTheResponseIsNotAProblem() {
        assertThatThrownBy(() -> assertThatProblem(tester.get("/fine")).hasStatus(200))
                .hasMessageStartingWith("Expected a problem (application/problem+json) but the response had status 200"
                        + " and content-type text/plain; charset=utf-8");
        assertThatThrownBy(() ->
                        assertThatProblem(raw(400, "application/json", "{}")).isProblem())
                .hasMessageContaining("content-type application/json");
        assertThatThrownBy(() -> assertThatProblem(raw(400, null, "{}")).isProblem())
                .hasMessageContaining("content-type null");
    }

    @Test
    void failsWhenTheBodyIsNotAJsonObject() {
        assertThatThrownBy(() -> assertThatProblem(raw(400, "application/problem+json", "[1]"))
                        .isProblem())
                .hasMessageStartingWith("Expected a JSON object body, but it is not JSON at offset 0");
    }

    @Test
    void failsWhenTheStatusMemberDisagreesWithTheResponse() {
        RawResponse response = raw(404, "application/problem+json", "{\"status\":500}");

        assertThatThrownBy(() -> assertThatProblem(response).hasStatus(404))
                .hasMessageStartingWith("Expected the status member to be 404 but was 500");
    }

    @Test
    void treatsAMissingTypeAsAboutBlank() {
        assertThatCode(() -> assertThatProblem(raw(400, "application/problem+json", "{}"))
                        .hasType("about:blank"))
                .doesNotThrowAnyException();
    }

    @Test
    void failsOnEachMemberThatDiffers() {
        RawResponse response =
                raw(400, "application/problem+json", "{\"title\":\"Bad Request\",\"detail\":\"x\",\"requestId\":\"\"}");

        assertThatThrownBy(() -> assertThatProblem(response).hasTitle("Not Found"))
                .hasMessageStartingWith("Expected title \"Not Found\" but was \"Bad Request\"");
        assertThatThrownBy(() -> assertThatProblem(response).hasDetailContaining("y"))
                .hasMessageStartingWith("Expected detail to contain \"y\" but was \"x\"");
        assertThatThrownBy(() -> assertThatProblem(response).hasNoDetail())
                .hasMessageStartingWith("Expected no detail but was \"x\"");
        assertThatThrownBy(() -> assertThatProblem(response).hasInstance("/a"))
                .hasMessageStartingWith("Expected a member instance but the problem has [title, detail, requestId]");
        assertThatThrownBy(() -> assertThatProblem(response).hasRequestId())
                .hasMessageStartingWith("Expected a requestId but it was empty");
        assertThatThrownBy(() -> assertThatProblem(response).hasMember("title", 3))
                .hasMessageStartingWith("Expected member title to be 3 but was \"Bad Request\"");
        assertThatThrownBy(() -> assertThatProblem(response).hasFieldError("title", "blank"))
                .hasMessageStartingWith("Expected a member errors");
    }

    @Test
    void prefixesTheDescription() {
        assertThatThrownBy(() -> assertThatProblem(raw(400, "application/problem+json", "{}"))
                        .as("missing todo")
                        .hasStatus(404))
                .hasMessageStartingWith("[missing todo] Expected status 404 but was 400");
    }

    @Test
    void worksOnTheTesterWithARequestBuiltByHand() {
        TestResponse response = tester.send(HttpRequest.builder(HttpMethod.DELETE, "/todos/42")
                .header("host", "api.example")
                .build());

        assertThatProblem(response).hasStatus(404).hasInstance("/todos/42");
    }

    private static RawResponse raw(int status, String contentType, String body) {
        List<Map.Entry<String, String>> headers =
                contentType == null ? List.of() : List.of(Map.entry("Content-Type", contentType));
        return new RawResponse("HTTP/1.1", status, headers, body.getBytes(StandardCharsets.UTF_8), List.of());
    }
}
