package io.parry.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void readsAnObjectWithEveryKindOfValueInMemberOrder() {
        Map<String, Object> object = Json.parseObject(
                " {\"s\":\"x\", \"n\":-1.5e2, \"z\":0, \"t\":true, \"f\":false, \"nil\":null, \"a\":[1,{\"b\":[]}], \"o\":{}} ");

        assertThat(object).containsOnlyKeys("s", "n", "z", "t", "f", "nil", "a", "o");
        assertThat(object.keySet()).containsExactly("s", "n", "z", "t", "f", "nil", "a", "o");
        assertThat(object.get("s")).isEqualTo("x");
        assertThat(object.get("n")).isEqualTo(new BigDecimal("-1.5e2"));
        assertThat(object.get("z")).isEqualTo(BigDecimal.ZERO);
        assertThat(object.get("t")).isEqualTo(true);
        assertThat(object.get("f")).isEqualTo(false);
        assertThat(object.get("nil")).isNull();
        assertThat(object.get("a")).isEqualTo(List.of(BigDecimal.ONE, Map.of("b", List.of())));
        assertThat(object.get("o")).isEqualTo(Map.of());
    }

    @Test
    void decodesEveryEscape() {
        Map<String, Object> object = Json.parseObject("{\"e\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"}");

        assertThat(object.get("e")).isEqualTo("\"\\/\b\f\n\r\té\uD83D\uDE00");
    }

    @Test
    void keepsCharactersBeyondAsciiAsTheyAre() {
        assertThat(Json.parseObject("{\"title\":\"Überfällig 🙂\"}").get("title"))
                .isEqualTo("Überfällig 🙂");
    }

    @Test
    void rejectsTextThatIsNotJson() {
        for (String text : List.of(
                "",
                "[]",
                "{",
                "{\"a\":1,}",
                "{a:1}",
                "{\"a\":01}",
                "{\"a\":1.}",
                "{\"a\":-}",
                "{\"a\":tru}",
                "{\"a\":\"\\x\"}",
                "{\"a\":\"\\u12\"}",
                "{\"a\":\"\\u\uFF10\uFF10\uFF14\uFF11\"}", // fullwidth digits are not hex digits
                "{\"a\":\"line\nbreak\"}",
                "{\"a\":\"open}",
                "{\"a\":1} {}",
                "{\"a\" 1}")) {
            assertThatThrownBy(() -> Json.parseObject(text))
                    .as(text)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("not JSON at offset ");
        }
    }

    @Test
    void namesWhereTheFaultIs() {
        assertThatThrownBy(() -> Json.parseObject("{\"a\":1,}"))
                .hasMessage("not JSON at offset 7 (expected: a member name)");
    }

    @Test
    void refusesNestingDeeperThan64Levels() {
        char[] open = new char[100];
        Arrays.fill(open, '[');

        assertThatThrownBy(() -> Json.parse(new String(open))).hasMessageContaining("at most 64 levels of nesting");
    }

    @Test
    void readsAnyValueAtTheTopLevel() {
        assertThat(Json.parse(" 42 ")).isEqualTo(new BigDecimal(42));
        assertThat(Json.parse("\"x\"")).isEqualTo("x");
        assertThat(Json.parse("null")).isNull();
    }
}
