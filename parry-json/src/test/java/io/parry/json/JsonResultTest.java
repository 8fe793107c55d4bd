package io.parry.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpStatus;
import org.junit.jupiter.api.Test;

class JsonResultTest {

    @Test
    void okIs200WithTheBody() {
        JsonResult<String> result = JsonResult.ok("x");

        assertThat(result.status()).isEqualTo(HttpStatus.OK);
        assertThat(result.body()).isEqualTo("x");
        assertThat(result.headers().isEmpty()).isTrue();
    }

    @Test
    void createdIs201WithALocation() {
        JsonResult<String> result = JsonResult.created("/todos/7", "x");

        assertThat(result.status()).isEqualTo(HttpStatus.CREATED);
        assertThat(result.headers().get("location")).isEqualTo("/todos/7");
        assertThat(result.body()).isEqualTo("x");
    }

    @Test
    void noContentIs204WithoutABody() {
        JsonResult<Object> result = JsonResult.noContent();

        assertThat(result.status()).isEqualTo(HttpStatus.NO_CONTENT);
        assertThat(result.body()).isNull();
    }

    @Test
    void refusesABodyForAStatusThatForbidsOne() {
        assertThatThrownBy(() -> JsonResult.of(HttpStatus.NO_CONTENT, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("body: not null (expected: null for status 204)");
        assertThat(JsonResult.of(HttpStatus.NOT_MODIFIED, null).body()).isNull();
    }

    @Test
    void withHeaderReturnsACopy() {
        JsonResult<String> original = JsonResult.ok("x");

        JsonResult<String> cached = original.withHeader("cache-control", "max-age=60");

        assertThat(cached.headers().get("cache-control")).isEqualTo("max-age=60");
        assertThat(original.headers().contains("cache-control")).isFalse();
    }

    @Test
    void checksItsArguments() {
        assertThatThrownBy(() -> JsonResult.created(null, "x")).hasMessage("location");
        assertThatThrownBy(() -> JsonResult.of(null)).hasMessage("status");
    }
}
