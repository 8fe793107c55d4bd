package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProblemTest {

    @Test
    void jsonHasTypeTitleAndStatus() {
        assertThat(Problem.of(HttpStatus.NOT_FOUND).toJson())
                .isEqualTo("{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404}");
    }

    @Test
    void jsonHasTheOptionalFieldsThatAreSet() {
        Problem problem = Problem.of(HttpStatus.NOT_FOUND)
                .detail("No todo 42.")
                .instance("/todos/42")
                .requestId("r-1");

        assertThat(problem.toJson())
                .isEqualTo("{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,"
                        + "\"detail\":\"No todo 42.\",\"instance\":\"/todos/42\",\"requestId\":\"r-1\"}");
    }

    @Test
    void jsonOmitsFieldsThatAreNotSet() {
        String json =
                Problem.of(HttpStatus.BAD_REQUEST).requestId("r-1").detail(null).toJson();

        assertThat(json)
                .isEqualTo("{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,"
                        + "\"requestId\":\"r-1\"}");
    }

    @Test
    void typeReplacesTypeAndTitle() {
        Problem problem = Problem.of(HttpStatus.CONFLICT).type("https://example.com/probs/dup", "Duplicate");

        assertThat(problem.toJson())
                .isEqualTo("{\"type\":\"https://example.com/probs/dup\",\"title\":\"Duplicate\",\"status\":409}");
    }

    @Test
    void escapesQuotesAndBackslashes() {
        String json = Problem.of(HttpStatus.BAD_REQUEST)
                .detail("say \"hi\" to C:\\dir")
                .toJson();

        assertThat(json).contains("\"detail\":\"say \\\"hi\\\" to C:\\\\dir\"");
    }

    @Test
    void escapesControlCharacters() {
        String json = Problem.of(HttpStatus.BAD_REQUEST)
                .detail("a\nb\tc\u0000d\u001f")
                .toJson();

        assertThat(json).contains("\"detail\":\"a\\u000ab\\u0009c\\u0000d\\u001f\"");
        assertThat(json).doesNotContain("\n").doesNotContain("\t");
    }

    @Test
    void keepsNonAsciiText() {
        String json =
                Problem.of(HttpStatus.BAD_REQUEST).detail("caf\u00e9 \u20ac").toJson();

        assertThat(json).contains("\"detail\":\"caf\u00e9 \u20ac\"");
    }

    @Test
    void copiesLeaveTheOriginalUnchanged() {
        Problem original = Problem.of(HttpStatus.NOT_FOUND);

        original.detail("x").instance("/y").requestId("z");

        assertThat(original.toJson())
                .doesNotContain("detail")
                .doesNotContain("instance")
                .doesNotContain("requestId");
    }

    @Test
    void toResponseIsProblemJsonWithTheStatus() {
        Problem problem = Problem.of(HttpStatus.CONTENT_TOO_LARGE).detail("too big");

        HttpResponse response = problem.toResponse();

        assertThat(response.status()).isSameAs(HttpStatus.CONTENT_TOO_LARGE);
        assertThat(response.headers().get("content-type")).isEqualTo("application/problem+json");
        assertThat(response.body()
                        .aggregate(1024)
                        .toCompletableFuture()
                        .getNow(null)
                        .toStringUtf8())
                .isEqualTo(problem.toJson());
        assertThat(problem.status()).isSameAs(HttpStatus.CONTENT_TOO_LARGE);
    }
}
