package io.parry.http.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpHeaders;
import org.junit.jupiter.api.Test;

class CheckedFieldsTest {
    @Test
    void makesHeadersOfTheFirstFieldsOfTheArray() {
        HttpHeaders headers = CheckedFields.of(new String[] {"host", "a", "accept", "*/*", null, null}, 2);

        assertThat(headers).isEqualTo(HttpHeaders.of("host", "a", "accept", "*/*"));
        assertThat(headers.with("x", "1").get("x")).isEqualTo("1");
    }

    @Test
    void makesTheEmptyHeadersOfNoFields() {
        assertThat(CheckedFields.of(new String[2], 0)).isSameAs(HttpHeaders.empty());
    }

    @Test
    void refusesASizeTheArrayDoesNotHold() {
        assertThatThrownBy(() -> CheckedFields.of(new String[2], 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("size: 2 (expected: 0 to 1)");
    }

    @Test
    void takesItsMakerOnlyFromHttpHeaders() {
        assertThatThrownBy(() -> CheckedFields.maker((entries, size) -> HttpHeaders.empty()))
                .isInstanceOf(IllegalStateException.class);
    }
}
