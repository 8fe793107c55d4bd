package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MediaTypeTest {

    @Test
    void parsesTypeAndSubtype() {
        MediaType type = MediaType.parse("application/json");

        assertThat(type.type()).isEqualTo("application");
        assertThat(type.subtype()).isEqualTo("json");
        assertThat(type.parameters()).isEmpty();
        assertThat(type).hasToString("application/json");
    }

    @Test
    void parsesParametersInOrder() {
        MediaType type = MediaType.parse("text/html; charset=utf-8;level=1 ;  q=0.5");

        assertThat(type.parameters())
                .containsExactly(entry("charset", "utf-8"), entry("level", "1"), entry("q", "0.5"));
    }

    @Test
    void unquotesQuotedParameterValues() {
        MediaType type = MediaType.parse("multipart/form-data; boundary=\"a b=c\"");

        assertThat(type.parameters()).containsExactly(entry("boundary", "a b=c"));
    }

    @Test
    void keepsSemicolonsInsideQuotedParameterValues() {
        MediaType type = MediaType.parse("multipart/form-data; boundary=\"a;b\"; charset=utf-8");

        assertThat(type.parameters()).containsExactly(entry("boundary", "a;b"), entry("charset", "utf-8"));
    }

    @Test
    void unescapesQuotedPairsInParameterValues() {
        MediaType type = MediaType.parse("text/plain; title=\"say \\\"hi\\\" \\\\ bye\"");

        assertThat(type.parameters()).containsExactly(entry("title", "say \"hi\" \\ bye"));
    }

    @Test
    void acceptsAnEmptyQuotedValue() {
        assertThat(MediaType.parse("text/plain; a=\"\"").parameters()).containsExactly(entry("a", ""));
    }

    @Test
    void typeSubtypeAndParameterNamesAreCaseInsensitive() {
        MediaType type = MediaType.parse("Application/JSON; CharSet=UTF-8");

        assertThat(type.type()).isEqualTo("application");
        assertThat(type.subtype()).isEqualTo("json");
        assertThat(type.parameters()).containsExactly(entry("charset", "UTF-8"));
        assertThat(MediaType.parse("APPLICATION/Json")).isEqualTo(MediaType.JSON);
        assertThat(MediaType.parse("APPLICATION/Json").hashCode()).isEqualTo(MediaType.JSON.hashCode());
    }

    @Test
    void toStringIsTheTrimmedText() {
        assertThat(MediaType.parse("  Text/Plain; charset=utf-8  ")).hasToString("Text/Plain; charset=utf-8");
    }

    @Test
    void equalsComparesParameters() {
        assertThat(MediaType.parse("text/plain; charset=utf-8"))
                .isEqualTo(MediaType.parse("text/plain;charset=\"utf-8\""))
                .isEqualTo(MediaType.PLAIN_TEXT_UTF_8)
                .isNotEqualTo(MediaType.parse("text/plain"));
    }

    @Test
    void charsetReadsTheCharsetParameter() {
        assertThat(MediaType.PLAIN_TEXT_UTF_8.charset()).contains(StandardCharsets.UTF_8);
        assertThat(MediaType.parse("text/plain; CHARSET=ISO-8859-1").charset()).contains(StandardCharsets.ISO_8859_1);
        assertThat(MediaType.JSON.charset()).isEmpty();
    }

    @Test
    void isComparesTypeAndSubtypeWithoutParameters() {
        MediaType json = MediaType.parse("application/json; charset=utf-8");

        assertThat(json.is(MediaType.JSON)).isTrue();
        assertThat(json.is(MediaType.PROBLEM_JSON)).isFalse();
        assertThat(json.is(MediaType.parse("text/json"))).isFalse();
    }

    @Test
    void isTreatsAWildcardInTheOtherTypeAsAnything() {
        MediaType json = MediaType.JSON;

        assertThat(json.is(MediaType.parse("application/*"))).isTrue();
        assertThat(json.is(MediaType.parse("*/*"))).isTrue();
        assertThat(json.is(MediaType.parse("text/*"))).isFalse();
        assertThat(MediaType.parse("application/*").is(json)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "json",
                "/json",
                "application/",
                "application /json",
                "app(lication/json",
                "application/js on",
                "text/plain; charset",
                "text/plain; =utf-8",
                "text/plain; char set=utf-8",
                "text/plain; a=\"unterminated",
                "text/plain; a=\"x\"y",
                "text/plain; a=\"x\\"
            })
    void rejectsInvalidText(String text) {
        assertThatThrownBy(() -> MediaType.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: type/subtype *(; name=value)");
    }

    @Test
    void rejectsNull() {
        assertThatThrownBy(() -> MediaType.parse(null)).isInstanceOf(NullPointerException.class);
    }
}
