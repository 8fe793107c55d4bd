package io.parry.gateway.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PathPatternTest {

    @Test
    void pathWithoutParametersIsExact() {
        PathPattern pattern = PathPattern.path("/hello");

        assertThat(pattern.kind()).isEqualTo(PathPattern.Kind.EXACT);
        assertThat(pattern.paramNames()).isEmpty();
    }

    @Test
    void pathWithParametersIsATemplate() {
        PathPattern pattern = PathPattern.path("/users/{id}/files/{*rest}");

        assertThat(pattern.kind()).isEqualTo(PathPattern.Kind.TEMPLATE);
        assertThat(pattern.paramNames()).containsExactly("id", "rest");
    }

    @Test
    void prefixLosesItsTrailingSlash() {
        assertThat(PathPattern.prefix("/api/").text()).isEqualTo("/api");
        assertThat(PathPattern.prefix("/").text()).isEqualTo("/");
    }

    @Test
    void templateParamsAreDecodedAndACatchAllKeepsEncodedSlashes() {
        PathPattern pattern = PathPattern.path("/users/{id}/files/{*rest}");

        Map<String, String> params = pattern.params("/users/j%C3%BCrgen/files/a/b%2Fc");

        assertThat(params).containsEntry("id", "jürgen").containsEntry("rest", "a/b%2Fc");
    }

    @Test
    void rejectsPathsThatDoNotStartWithASlash() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> PathPattern.path("hello"))
                .withMessage("path: hello (expected: a path starting with /)");
    }

    @Test
    void rejectsParametersThatAreNotAWholeSegment() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> PathPattern.path("/users/id-{id}"))
                .withMessageStartingWith("path: /users/id-{id} (expected: parameters as {name}");
    }

    @Test
    void rejectsACatchAllBeforeTheLastSegment() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> PathPattern.path("/files/{*rest}/x"))
                .withMessageContaining("last only");
    }

    @Test
    void rejectsARepeatedParameterName() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> PathPattern.path("/a/{id}/b/{id}"))
                .withMessage("path: /a/{id}/b/{id} (expected: each parameter name once; id is repeated)");
    }

    @Test
    void rejectsAPrefixWithAParameter() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> PathPattern.prefix("/users/{id}"))
                .withMessageContaining("use path for a template");
    }
}
