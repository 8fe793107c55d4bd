package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathRewriteTest {
    private static final Map<String, String> NO_PARAMS = Map.of();

    @Test
    void noneKeepsTheTarget() {
        String target = "/a/b?c=d";

        assertThat(PathRewrite.none().apply(target, NO_PARAMS)).isSameAs(target);
    }

    @ParameterizedTest
    @CsvSource({
        "/api/users?x=1, /users?x=1",
        "/api/users/42, /users/42",
        "/api, /",
        "/api/, /",
        "/api?x=1, /?x=1",
        "/api/?x=1, /?x=1",
        "/api//a, //a"
    })
    void stripPrefixRemovesThePrefixAndKeepsTheQuery(String target, String expected) {
        assertThat(PathRewrite.stripPrefix("/api").apply(target, NO_PARAMS)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/apix", "/apix/users", "/API/users", "/other/api", "/", "/ap"})
    void stripPrefixMatchesOnlyWholeLeadingSegments(String target) {
        assertThat(PathRewrite.stripPrefix("/api").apply(target, NO_PARAMS)).isSameAs(target);
    }

    @Test
    void stripPrefixIgnoresATrailingSlashAndTakesSeveralSegments() {
        assertThat(PathRewrite.stripPrefix("/api/").apply("/api/users", NO_PARAMS))
                .isEqualTo("/users");
        assertThat(PathRewrite.stripPrefix("/api/v1").apply("/api/v1/users?x", NO_PARAMS))
                .isEqualTo("/users?x");
        assertThat(PathRewrite.stripPrefix("/api/v1").apply("/api/v10/users", NO_PARAMS))
                .isEqualTo("/api/v10/users");
    }

    @Test
    void stripPrefixOfTheRootChangesNothing() {
        assertThat(PathRewrite.stripPrefix("/").apply("/a?b", NO_PARAMS)).isEqualTo("/a?b");
        assertThat(PathRewrite.stripPrefix("/").apply("/", NO_PARAMS)).isEqualTo("/");
    }

    @ParameterizedTest
    @CsvSource({"/api/u, /v2/u", "/api, /v2", "/api?x=1, /v2?x=1", "/api/u/w?x=1, /v2/u/w?x=1", "/apix/u, /apix/u"})
    void replacePrefixSwapsThePrefix(String target, String expected) {
        assertThat(PathRewrite.replacePrefix("/api", "/v2").apply(target, NO_PARAMS))
                .isEqualTo(expected);
    }

    @Test
    void replacePrefixMakesNoEmptySegmentWhereTheReplacementEndsInASlash() {
        assertThat(PathRewrite.replacePrefix("/api", "/").apply("/api/u", NO_PARAMS))
                .isEqualTo("/u");
        assertThat(PathRewrite.replacePrefix("/api", "/").apply("/api", NO_PARAMS))
                .isEqualTo("/");
        assertThat(PathRewrite.replacePrefix("/api", "/v2/").apply("/api/u", NO_PARAMS))
                .isEqualTo("/v2/u");
        assertThat(PathRewrite.replacePrefix("/api", "/v2/").apply("/api", NO_PARAMS))
                .isEqualTo("/v2/");
    }

    @Test
    void replacePrefixOfTheRootPrependsToEveryPath() {
        PathRewrite rewrite = PathRewrite.replacePrefix("/", "/v2");

        assertThat(rewrite.apply("/u?x", NO_PARAMS)).isEqualTo("/v2/u?x");
        assertThat(rewrite.apply("/", NO_PARAMS)).isEqualTo("/v2/");
    }

    @Test
    void templateFillsParametersAndKeepsTheQuery() {
        PathRewrite rewrite = PathRewrite.template("/users/{id}/profile");

        assertThat(rewrite.apply("/people/42?full=1", Map.of("id", "42"))).isEqualTo("/users/42/profile?full=1");
        assertThat(rewrite.apply("/people/42", Map.of("id", "42", "other", "x")))
                .isEqualTo("/users/42/profile");
    }

    @Test
    void templateTakesSeveralParametersInAnyOrder() {
        PathRewrite rewrite = PathRewrite.template("/{b}-{a}/{a}");

        assertThat(rewrite.apply("/x", Map.of("a", "1", "b", "2"))).isEqualTo("/2-1/1");
    }

    @Test
    void templateWithoutParametersIsAFixedPath() {
        assertThat(PathRewrite.template("/health").apply("/anything/else?x", NO_PARAMS))
                .isEqualTo("/health?x");
        assertThat(PathRewrite.template("/").apply("/a", NO_PARAMS)).isEqualTo("/");
    }

    @Test
    void templateKeepsAParameterInOneSegment() {
        PathRewrite rewrite = PathRewrite.template("/users/{id}");

        assertThat(rewrite.apply("/", Map.of("id", "a/b?c#d e%f"))).isEqualTo("/users/a%2Fb%3Fc%23d%20e%25f");
        assertThat(rewrite.apply("/", Map.of("id", "a;b=c:d@e!$&'()*+,~._-")))
                .isEqualTo("/users/a;b=c:d@e!$&'()*+,~._-");
    }

    @Test
    void templateEncodesNonAsciiAsUtf8() {
        PathRewrite rewrite = PathRewrite.template("/w/{word}");

        assertThat(rewrite.apply("/", Map.of("word", "café"))).isEqualTo("/w/caf%C3%A9");
        assertThat(rewrite.apply("/", Map.of("word", "€"))).isEqualTo("/w/%E2%82%AC");
        assertThat(rewrite.apply("/", Map.of("word", "\uD83D\uDE00"))).isEqualTo("/w/%F0%9F%98%80");
    }

    @Test
    void templateCatchAllKeepsItsSlashesAndEncodedSlashes() {
        PathRewrite rewrite = PathRewrite.template("/static/{*path}");

        assertThat(rewrite.apply("/files/a/b/c.css?v=2", Map.of("path", "a/b/c.css")))
                .isEqualTo("/static/a/b/c.css?v=2");
        assertThat(rewrite.apply("/files/", Map.of("path", ""))).isEqualTo("/static/");
        assertThat(rewrite.apply("/", Map.of("path", "a%2Fb/c d"))).isEqualTo("/static/a%2Fb/c%20d");
        assertThat(rewrite.apply("/", Map.of("path", "100%/x%2"))).isEqualTo("/static/100%25/x%252");
    }

    @Test
    void templateFailsClearlyWhenAParameterIsMissing() {
        PathRewrite rewrite = PathRewrite.template("/users/{id}/profile");

        assertThatThrownBy(() -> rewrite.apply("/people", Map.of("name", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pathParams: no id (expected by template(/users/{id}/profile);"
                        + " the route must match a parameter of that name)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"api", "", "/a?b", "/a b", "/a#b", "/a%zz", "/a%2", "/a\\b", "/caf\u00e9"})
    void refusesAPrefixThatIsNotAPath(String prefix) {
        assertThatThrownBy(() -> PathRewrite.stripPrefix(prefix))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("prefix: " + prefix + " (expected: ");
    }

    @Test
    void explainsWhatAPrefixMustBe() {
        assertThatThrownBy(() -> PathRewrite.stripPrefix("api"))
                .hasMessage("prefix: api (expected: a path starting with / such as /api)");
        assertThatThrownBy(() -> PathRewrite.stripPrefix("/a?b"))
                .hasMessage("prefix: /a?b (expected: only path characters (RFC 3986, section 3.3), no query)");
        assertThatThrownBy(() -> PathRewrite.stripPrefix("/a%zz"))
                .hasMessage("prefix: /a%zz (expected: percent-escapes of two hex digits)");
        assertThatThrownBy(() -> PathRewrite.replacePrefix("/api", "v2"))
                .hasMessage("replacement: v2 (expected: a path starting with / such as /api)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/u/{}", "/u/{1x}", "/u/{id", "/u/{*}", "/u/{a-b}", "/u/{id:\\d+}", "/u/{{id}}"})
    void refusesATemplateWithABadParameter(String template) {
        assertThatThrownBy(() -> PathRewrite.template(template))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("template: " + template
                        + " (expected: parameters as {name} or {*name}, names [A-Za-z_][A-Za-z0-9_]*)");
    }

    @Test
    void refusesATemplateThatIsNotAPath() {
        assertThatThrownBy(() -> PathRewrite.template("users/{id}"))
                .hasMessage("template: users/{id} (expected: a path starting with / such as /users/{id})");
        assertThatThrownBy(() -> PathRewrite.template("/u?x={id}"))
                .hasMessage("template: /u?x={id} (expected: only path characters (RFC 3986, section 3.3), no query)");
        assertThatThrownBy(() -> PathRewrite.template("/u/id}"))
                .hasMessage("template: /u/id} (expected: only path characters (RFC 3986, section 3.3), no query)");
    }

    @Test
    void refusesNulls() {
        assertThatThrownBy(() -> PathRewrite.stripPrefix(null)).hasMessage("prefix");
        assertThatThrownBy(() -> PathRewrite.replacePrefix("/a", null)).hasMessage("replacement");
        assertThatThrownBy(() -> PathRewrite.template(null)).hasMessage("template");
        assertThatThrownBy(() -> PathRewrite.none().apply(null, NO_PARAMS)).hasMessage("target");
        assertThatThrownBy(() -> PathRewrite.none().apply("/", null)).hasMessage("pathParams");
    }

    @Test
    void describesItself() {
        assertThat(PathRewrite.none()).hasToString("PathRewrite.none()");
        assertThat(PathRewrite.stripPrefix("/api")).hasToString("PathRewrite.stripPrefix(/api)");
        assertThat(PathRewrite.replacePrefix("/a", "/b")).hasToString("PathRewrite.replacePrefix(/a, /b)");
        assertThat(PathRewrite.template("/u/{id}")).hasToString("PathRewrite.template(/u/{id})");
    }

    @Test
    void equalsARewriteMadeByTheSameFactoryWithTheSameArguments() {
        assertThat(PathRewrite.replacePrefix("/a", "/b"))
                .isEqualTo(PathRewrite.replacePrefix("/a", "/b"))
                .hasSameHashCodeAs(PathRewrite.replacePrefix("/a", "/b"))
                .isNotEqualTo(PathRewrite.replacePrefix("/a", "/c"))
                .isNotEqualTo(PathRewrite.stripPrefix("/a"));
        assertThat(PathRewrite.template("/u/{id}")).isEqualTo(PathRewrite.template("/u/{id}"));
        assertThat(PathRewrite.stripPrefix("/a")).isNotEqualTo(PathRewrite.template("/a"));
    }

    @Test
    void tellsWhichFactoryMadeItAndWithWhat() {
        PathRewrite replace = PathRewrite.replacePrefix("/api/", "/v2");

        assertThat(replace.kind()).isEqualTo(PathRewrite.Kind.REPLACE_PREFIX);
        assertThat(replace.pattern()).isEqualTo("/api/");
        assertThat(replace.replacement()).isEqualTo("/v2");
        assertThat(PathRewrite.stripPrefix("/api").replacement()).isNull();
        assertThat(PathRewrite.template("/u/{id}").pattern()).isEqualTo("/u/{id}");
        assertThat(PathRewrite.none().kind()).isEqualTo(PathRewrite.Kind.NONE);
        assertThat(PathRewrite.none().pattern()).isNull();
    }
}
