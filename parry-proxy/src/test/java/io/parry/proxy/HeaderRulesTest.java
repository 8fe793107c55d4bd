package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpHeaders;
import org.junit.jupiter.api.Test;

class HeaderRulesTest {

    @Test
    void noRulesReturnTheSameHeaders() {
        HttpHeaders headers = HttpHeaders.of("a", "1");

        assertThat(HeaderRules.none().apply(headers)).isSameAs(headers);
        assertThat(HeaderRules.none().isEmpty()).isTrue();
        assertThat(HeaderRules.builder().build().apply(headers)).isSameAs(headers);
        assertThat(HeaderRules.builder().build().isEmpty()).isTrue();
    }

    @Test
    void appliesRulesInTheOrderTheyWereDeclared() {
        HeaderRules rules = HeaderRules.builder()
                .add("x", "1")
                .set("y", "2")
                .remove("x")
                .add("x", "3")
                .build();

        assertThat(rules.isEmpty()).isFalse();
        assertThat(rules.apply(HttpHeaders.of("x", "0", "y", "0", "y", "00", "z", "0")))
                .isEqualTo(HttpHeaders.of("z", "0", "y", "2", "x", "3"));
    }

    @Test
    void removeAfterAddLeavesNothing() {
        HeaderRules rules = HeaderRules.builder().add("x", "1").remove("X").build();

        assertThat(rules.apply(HttpHeaders.empty())).isEqualTo(HttpHeaders.empty());
    }

    @Test
    void addKeepsFieldsOfTheSameName() {
        HeaderRules rules =
                HeaderRules.builder().add("Cache-Control", "no-transform").build();

        assertThat(rules.apply(HttpHeaders.of("cache-control", "max-age=60")).getAll("cache-control"))
                .containsExactly("max-age=60", "no-transform");
    }

    @Test
    void setReplacesEveryFieldOfTheNameWhateverItsCase() {
        HeaderRules rules = HeaderRules.builder().set("X-Env", "prod").build();

        assertThat(rules.apply(HttpHeaders.of("x-env", "a", "X-ENV", "b")).getAll("x-env"))
                .containsExactly("prod");
    }

    @Test
    void leavesTheGivenHeadersUnchanged() {
        HttpHeaders headers = HttpHeaders.of("a", "1");

        HeaderRules.builder().remove("a").build().apply(headers);

        assertThat(headers).isEqualTo(HttpHeaders.of("a", "1"));
    }

    @Test
    void isNotChangedByItsBuilderAfterBuild() {
        HeaderRules.Builder builder = HeaderRules.builder().add("a", "1");
        HeaderRules rules = builder.build();
        builder.remove("a");

        assertThat(rules.apply(HttpHeaders.empty())).isEqualTo(HttpHeaders.of("a", "1"));
    }

    @Test
    void refusesANameThatIsNotAToken() {
        assertThatThrownBy(() -> HeaderRules.builder().set("bad name", "1").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("header name: bad name (expected: an HTTP token)");
        assertThatThrownBy(() -> HeaderRules.builder().remove("").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("header name:  (expected: an HTTP token)");
    }

    @Test
    void refusesAValueThatCouldSplitTheHeader() {
        assertThatThrownBy(
                        () -> HeaderRules.builder().add("x", "1\r\nx-evil: 1").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("header value of x (expected: no control characters such as CR, LF or NUL)");
    }

    @Test
    void refusesNulls() {
        assertThatThrownBy(() -> HeaderRules.builder().add(null, "1"))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("name");
        assertThatThrownBy(() -> HeaderRules.builder().set("x", null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("value");
        assertThatThrownBy(() -> HeaderRules.none().apply(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("headers");
    }

    @Test
    void describesItsRules() {
        HeaderRules rules = HeaderRules.builder().set("a", "1").remove("b").build();

        assertThat(rules).hasToString("HeaderRules[set a: 1, remove b]");
    }

    @Test
    void listsItsRulesInOrder() {
        HeaderRules rules = HeaderRules.builder().remove("a").set("b", "1").build();

        assertThat(rules.rules())
                .containsExactly(
                        new HeaderRules.Rule(HeaderRules.Action.REMOVE, "a", null),
                        new HeaderRules.Rule(HeaderRules.Action.SET, "b", "1"));
        assertThat(rules.toBuilder().add("c", "2").build().rules()).hasSize(3);
        assertThat(HeaderRules.none().rules()).isEmpty();
    }
}
