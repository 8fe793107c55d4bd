package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpHeadersTest {

    @Test
    void keepsBuiltHeadersWhenTheBuilderThatFilledThemExactlyChangesAfterwards() {
        HttpHeaders.Builder builder = HttpHeaders.builder(2).add("a", "1").add("b", "2");
        HttpHeaders first = builder.build();

        builder.remove("a");
        HttpHeaders second = builder.add("c", "3").build();
        HttpHeaders third = builder.set("b", "4").build();

        assertThat(first).isEqualTo(HttpHeaders.of("a", "1", "b", "2"));
        assertThat(second).isEqualTo(HttpHeaders.of("b", "2", "c", "3"));
        assertThat(third).isEqualTo(HttpHeaders.of("c", "3", "b", "4"));
    }

    @Test
    void addsFieldsTakenFromOtherHeadersAfterThoseItHas() {
        HttpHeaders received = HttpHeaders.of("Accept", "*/*", "X-Id", "7");
        HttpHeaders.Builder builder = HttpHeaders.builder(1).add("via", "1.1 a");

        HttpHeaders copied = builder.addFrom(received, 1).addFrom(received, 0).build();

        assertThat(copied).isEqualTo(HttpHeaders.of("via", "1.1 a", "X-Id", "7", "Accept", "*/*"));
        assertThatThrownBy(() -> builder.addFrom(received, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void keepsOnlyTheFieldsOfOneNameInOrderAsSpelt() {
        HttpHeaders headers =
                HttpHeaders.of("Host", "h", "Content-Type", "text/plain", "x-a", "1", "content-type", "b");

        assertThat(headers.only("CONTENT-TYPE"))
                .isEqualTo(HttpHeaders.of("Content-Type", "text/plain", "content-type", "b"));
        assertThat(headers.only("content-type").name(0)).isEqualTo("Content-Type");
        assertThat(headers.only("x-a")).isEqualTo(HttpHeaders.of("x-a", "1"));
        assertThat(headers.only("missing")).isSameAs(HttpHeaders.empty());
        assertThat(HttpHeaders.of("a", "1", "A", "2").only("a")).isEqualTo(HttpHeaders.of("a", "1", "A", "2"));
    }

    @Test
    void refusesANegativeBuilderCapacity() {
        assertThatThrownBy(() -> HttpHeaders.builder(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fields: -1 (expected: >= 0)");
    }

    @Test
    void getIgnoresNameCase() {
        HttpHeaders headers = HttpHeaders.of("Content-Type", "text/plain");

        assertThat(headers.get("content-type")).isEqualTo("text/plain");
        assertThat(headers.get("CONTENT-TYPE")).isEqualTo("text/plain");
    }

    @Test
    void getReturnsFirstValueOrNullWhenAbsent() {
        HttpHeaders headers = HttpHeaders.of("a", "1", "b", "2", "A", "3");

        assertThat(headers.get("a")).isEqualTo("1");
        assertThat(headers.get("c")).isNull();
    }

    @Test
    void getAllKeepsOrderAndRepeatsAcrossNameCases() {
        HttpHeaders headers = HttpHeaders.of("a", "1", "b", "2", "A", "3", "a", "1");

        assertThat(headers.getAll("a")).containsExactly("1", "3", "1");
        assertThat(headers.getAll("missing")).isEmpty();
    }

    @Test
    void getAllReturnsUnmodifiableList() {
        List<String> values = HttpHeaders.of("a", "1").getAll("a");

        assertThatThrownBy(() -> values.add("2")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void containsIgnoresNameCase() {
        HttpHeaders headers = HttpHeaders.of("X-Request-Id", "42");

        assertThat(headers.contains("x-request-id")).isTrue();
        assertThat(headers.contains("x-request")).isFalse();
    }

    @Test
    void containsValueFindsAnElementOfACommaSeparatedList() {
        HttpHeaders headers = HttpHeaders.of("Connection", "keep-alive, Upgrade");

        assertThat(headers.containsValue("connection", "keep-alive")).isTrue();
        assertThat(headers.containsValue("connection", "upgrade")).isTrue();
        assertThat(headers.containsValue("connection", "close")).isFalse();
    }

    @Test
    void containsValueTrimsSpacesAndTabsAroundElements() {
        HttpHeaders headers = HttpHeaders.of("te", " \ttrailers\t ,  gzip ");

        assertThat(headers.containsValue("te", "trailers")).isTrue();
        assertThat(headers.containsValue("te", "gzip")).isTrue();
    }

    @Test
    void containsValueMatchesWholeElementsOnly() {
        HttpHeaders headers = HttpHeaders.of("accept-encoding", "x-gzip, deflate");

        assertThat(headers.containsValue("accept-encoding", "gzip")).isFalse();
        assertThat(headers.containsValue("accept-encoding", "deflat")).isFalse();
        assertThat(headers.containsValue("accept-encoding", "x-gzip, deflate")).isFalse();
    }

    @Test
    void containsValueLooksInEveryFieldOfTheName() {
        HttpHeaders headers = HttpHeaders.of("Connection", "keep-alive", "other", "close", "CONNECTION", "close");

        assertThat(headers.containsValue("connection", "close")).isTrue();
    }

    @Test
    void containsValueSkipsEmptyElements() {
        HttpHeaders headers = HttpHeaders.of("vary", "a,,b,");

        assertThat(headers.containsValue("vary", "b")).isTrue();
        assertThat(headers.containsValue("vary", "c")).isFalse();
    }

    @Test
    void sizeCountsRepeatedFields() {
        HttpHeaders headers = HttpHeaders.of("a", "1", "a", "2", "b", "3");

        assertThat(headers.size()).isEqualTo(3);
        assertThat(headers.isEmpty()).isFalse();
        assertThat(HttpHeaders.empty().isEmpty()).isTrue();
    }

    @Test
    void nameAndValueByIndexKeepTheGivenCase() {
        HttpHeaders headers = HttpHeaders.of("X-Mixed-Case", "Value", "other", "v");

        assertThat(headers.name(0)).isEqualTo("X-Mixed-Case");
        assertThat(headers.value(0)).isEqualTo("Value");
        assertThat(headers.name(1)).isEqualTo("other");
    }

    @Test
    void nameAndValueRejectIndexOutOfRange() {
        HttpHeaders headers = HttpHeaders.of("a", "1");

        assertThatThrownBy(() -> headers.name(1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> headers.value(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void forEachVisitsFieldsInOrder() {
        HttpHeaders headers = HttpHeaders.of("b", "1", "a", "2", "b", "3");
        List<String> seen = new ArrayList<>();

        headers.forEach((name, value) -> seen.add(name + "=" + value));

        assertThat(seen).containsExactly("b=1", "a=2", "b=3");
    }

    @Test
    void withReplacesEveryFieldOfTheNameAndLeavesOriginalUnchanged() {
        HttpHeaders original = HttpHeaders.of("a", "1", "b", "2", "A", "3");

        HttpHeaders changed = original.with("a", "9");

        assertThat(changed.getAll("a")).containsExactly("9");
        assertThat(changed.get("b")).isEqualTo("2");
        assertThat(original.getAll("a")).containsExactly("1", "3");
        assertThat(original.size()).isEqualTo(3);
    }

    @Test
    void withoutRemovesEveryFieldOfTheNameAndLeavesOriginalUnchanged() {
        HttpHeaders original = HttpHeaders.of("a", "1", "b", "2", "A", "3");

        HttpHeaders changed = original.without("A");

        assertThat(changed.contains("a")).isFalse();
        assertThat(changed.size()).isEqualTo(1);
        assertThat(original.getAll("a")).containsExactly("1", "3");
    }

    @Test
    void withoutAnAbsentNameReturnsTheSameInstance() {
        HttpHeaders headers = HttpHeaders.of("a", "1");

        assertThat(headers.without("b")).isSameAs(headers);
    }

    @Test
    void mapAppliesEditsToACopy() {
        HttpHeaders original = HttpHeaders.of("a", "1", "b", "2");

        HttpHeaders changed = original.map(h -> h.set("a", "9").remove("b").add("c", "3"));

        assertThat(changed).isEqualTo(HttpHeaders.of("a", "9", "c", "3"));
        assertThat(original).isEqualTo(HttpHeaders.of("a", "1", "b", "2"));
    }

    @Test
    void toBuilderDoesNotShareStateWithTheOriginal() {
        HttpHeaders original = HttpHeaders.of("a", "1");

        HttpHeaders.Builder builder = original.toBuilder();
        builder.add("b", "2").remove("a");

        assertThat(original).isEqualTo(HttpHeaders.of("a", "1"));
        assertThat(builder.build()).isEqualTo(HttpHeaders.of("b", "2"));
    }

    @Test
    void buildTwiceGivesIndependentHeaders() {
        HttpHeaders.Builder builder = HttpHeaders.builder().add("a", "1");

        HttpHeaders first = builder.build();
        builder.add("b", "2").set("a", "9");

        assertThat(first).isEqualTo(HttpHeaders.of("a", "1"));
        assertThat(builder.build()).isEqualTo(HttpHeaders.of("b", "2", "a", "9"));
    }

    @Test
    void builderGrowsBeyondItsInitialCapacity() {
        HttpHeaders.Builder builder = HttpHeaders.builder();
        for (int i = 0; i < 50; i++) {
            builder.add("x-" + i, Integer.toString(i));
        }

        HttpHeaders headers = builder.build();

        assertThat(headers.size()).isEqualTo(50);
        assertThat(headers.get("x-49")).isEqualTo("49");
        assertThat(builder.contains("X-0")).isTrue();
    }

    @Test
    void equalsAndHashCodeIgnoreNameCase() {
        HttpHeaders lower = HttpHeaders.of("content-type", "text/plain", "x-a", "1");
        HttpHeaders mixed = HttpHeaders.of("Content-Type", "text/plain", "X-A", "1");

        assertThat(lower).isEqualTo(mixed);
        assertThat(lower.hashCode()).isEqualTo(mixed.hashCode());
    }

    @Test
    void equalsComparesValuesWithCase() {
        assertThat(HttpHeaders.of("a", "Text")).isNotEqualTo(HttpHeaders.of("a", "text"));
        assertThat(HttpHeaders.of("a", "1")).isNotEqualTo(HttpHeaders.of("a", "1", "a", "1"));
    }

    @Test
    void ofRejectsAnOddCount() {
        assertThatThrownBy(() -> HttpHeaders.of("a", "1", "b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("odd");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "a:b", "a\tb", "a\r", "a\n", "a\0", "(a)", "a/b", "a\"b", "caf\u00e9", "a@b"})
    void rejectsNameThatIsNotAToken(String name) {
        assertThatThrownBy(() -> HttpHeaders.builder().add(name, "v"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: an HTTP token");
    }

    @Test
    void acceptsEveryTokenCharacterInNames() {
        HttpHeaders headers = HttpHeaders.of("!#$%&'*+-.^_`|~09azAZ", "v");

        assertThat(headers.get("!#$%&'*+-.^_`|~09AZAZ")).isEqualTo("v");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"a\rb", "a\nb", "a\r\nx-injected: 1", "a\0b", "a\u0001b", "a\u001fb", "a\u007fb", "a\u0100b"})
    void rejectsValueWithControlCharacters(String value) {
        assertThatThrownBy(() -> HttpHeaders.of("x-a", value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("x-a");
    }

    @Test
    void acceptsTabsSpacesAndObsTextInValues() {
        HttpHeaders headers = HttpHeaders.of("x-a", "a\tb c", "x-b", "caf\u00e9 \u0080\u00ff", "x-empty", "");

        assertThat(headers.get("x-a")).isEqualTo("a\tb c");
        assertThat(headers.get("x-b")).isEqualTo("caf\u00e9 \u0080\u00ff");
        assertThat(headers.get("x-empty")).isEmpty();
    }

    @Test
    void withValidatesItsArguments() {
        HttpHeaders headers = HttpHeaders.empty();

        assertThatThrownBy(() -> headers.with("x-a", "1\r\n")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> headers.with("x a", "1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsNullNamesAndValues() {
        assertThatThrownBy(() -> HttpHeaders.builder().add(null, "v")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> HttpHeaders.builder().add("a", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> HttpHeaders.empty().get(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void toStringListsFieldsInOrder() {
        assertThat(HttpHeaders.of("a", "1", "B", "2")).hasToString("[a: 1, B: 2]");
    }
}
