package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.Problem.FieldError;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    @Test
    void errorsAreWrittenLastInTheirOrder() {
        Problem problem = Problem.of(HttpStatus.BAD_REQUEST)
                .requestId("r-1")
                .errors(List.of(
                        FieldError.of("title", "must not be blank", ""),
                        FieldError.of("items[0].quantity", "must be greater than 0", -1)));

        assertThat(problem.toJson())
                .isEqualTo(
                        "{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,\"requestId\":\"r-1\","
                                + "\"errors\":[{\"field\":\"title\",\"message\":\"must not be blank\",\"rejectedValue\":\"\"},"
                                + "{\"field\":\"items[0].quantity\",\"message\":\"must be greater than 0\",\"rejectedValue\":-1}]}");
    }

    @Test
    void errorsAreLeftOutWhenThereAreNone() {
        assertThat(Problem.of(HttpStatus.BAD_REQUEST).errors(List.of()).toJson())
                .doesNotContain("errors");
    }

    @Test
    void fieldErrorWithoutRejectedValueHasNoSuchMember() {
        assertThat(FieldError.of("name", "is not a known field").toString())
                .isEqualTo("{\"field\":\"name\",\"message\":\"is not a known field\"}");
        assertThat(FieldError.of("name", "x").hasRejectedValue()).isFalse();
    }

    @Test
    void rejectedNullIsWrittenAsNull() {
        FieldError error = FieldError.of("title", "must not be null", null);

        assertThat(error.toString()).endsWith(",\"rejectedValue\":null}");
        assertThat(error.hasRejectedValue()).isTrue();
        assertThat(error.rejectedValue()).isNull();
    }

    @Test
    void rejectedScalarsAreWrittenAsJsonScalars() {
        assertThat(rejected(true)).isEqualTo("true");
        assertThat(rejected(42L)).isEqualTo("42");
        assertThat(rejected(1.5d)).isEqualTo("1.5");
        assertThat(rejected(new BigDecimal("12.50"))).isEqualTo("12.50");
        assertThat(rejected('x')).isEqualTo("\"x\"");
        assertThat(rejected(HttpMethodLike.DELETE)).isEqualTo("\"DELETE\"");
        assertThat(rejected(new StringBuilder("sb"))).isEqualTo("\"sb\"");
    }

    @Test
    void rejectedNumbersJsonCannotHoldAreWrittenAsStrings() {
        assertThat(rejected(Double.NaN)).isEqualTo("\"NaN\"");
        assertThat(rejected(Float.NEGATIVE_INFINITY)).isEqualTo("\"-Infinity\"");
    }

    @Test
    void escapesFieldsMessagesAndRejectedStrings() {
        FieldError error = FieldError.of("a\"b", "line\nbreak", "C:\\dir");

        assertThat(error.toString())
                .isEqualTo("{\"field\":\"a\\\"b\",\"message\":\"line\\u000abreak\",\"rejectedValue\":\"C:\\\\dir\"}");
    }

    @Test
    void refusesAnObjectAsRejectedValue() {
        assertThatThrownBy(() -> FieldError.of("tags", "too many", List.of("a")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rejectedValue")
                .hasMessageContaining("expected: null, CharSequence");
        assertThat(FieldError.isScalar(Map.of())).isFalse();
        assertThat(FieldError.isScalar(null)).isTrue();
    }

    @Test
    void errorsAreCopiedAndKeptByLaterCopies() {
        List<FieldError> errors = new ArrayList<>(List.of(FieldError.of("a", "bad")));
        Problem problem = Problem.of(HttpStatus.BAD_REQUEST).errors(errors);
        errors.add(FieldError.of("b", "bad"));

        Problem copy = problem.detail("d").instance("/x").requestId("r").type("urn:t", "T");

        assertThat(problem.errors()).containsExactly(FieldError.of("a", "bad"));
        assertThat(copy.errors()).containsExactly(FieldError.of("a", "bad"));
        assertThat(Problem.of(HttpStatus.BAD_REQUEST).errors()).isEmpty();
    }

    @Test
    void fieldErrorsAreEqualByValue() {
        assertThat(FieldError.of("a", "m", 1))
                .isEqualTo(FieldError.of("a", "m", 1))
                .hasSameHashCodeAs(FieldError.of("a", "m", 1));
        assertThat(FieldError.of("a", "m", null)).isNotEqualTo(FieldError.of("a", "m"));
    }

    private static String rejected(Object value) {
        String json = FieldError.of("f", "m", value).toString();
        return json.substring(json.indexOf("\"rejectedValue\":") + 16, json.length() - 1);
    }

    private enum HttpMethodLike {
        DELETE
    }
}
