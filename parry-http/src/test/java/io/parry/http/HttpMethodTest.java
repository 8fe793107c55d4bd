package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpMethodTest {
    private static final List<HttpMethod> STANDARD = List.of(
            HttpMethod.GET,
            HttpMethod.HEAD,
            HttpMethod.POST,
            HttpMethod.PUT,
            HttpMethod.DELETE,
            HttpMethod.CONNECT,
            HttpMethod.OPTIONS,
            HttpMethod.TRACE,
            HttpMethod.PATCH);

    @Test
    void ofReturnsTheConstantForEachStandardName() {
        for (HttpMethod method : STANDARD) {
            assertThat(HttpMethod.of(method.name())).isSameAs(method);
        }
    }

    @Test
    void ofIsCaseSensitive() {
        HttpMethod lower = HttpMethod.of("get");

        assertThat(lower).isNotSameAs(HttpMethod.GET).isNotEqualTo(HttpMethod.GET);
        assertThat(lower.name()).isEqualTo("get");
        assertThat(lower.isSafe()).isFalse();
    }

    @Test
    void ofAcceptsAnyOtherToken() {
        HttpMethod propfind = HttpMethod.of("PROPFIND");

        assertThat(propfind.name()).isEqualTo("PROPFIND");
        assertThat(propfind).hasToString("PROPFIND");
        assertThat(propfind).isEqualTo(HttpMethod.of("PROPFIND"));
        assertThat(propfind.hashCode()).isEqualTo(HttpMethod.of("PROPFIND").hashCode());
    }

    @Test
    void customMethodsAreNeitherSafeNorIdempotent() {
        HttpMethod custom = HttpMethod.of("X-CUSTOM");

        assertThat(custom.isSafe()).isFalse();
        assertThat(custom.isIdempotent()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "GE T", "GET\r\n", "G(T", "GET/", "G\u00c9T", "\0"})
    void ofRejectsNamesThatAreNotTokens(String name) {
        assertThatThrownBy(() -> HttpMethod.of(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("method: " + name + " (expected: an HTTP token)");
    }

    @Test
    void ofRejectsNull() {
        assertThatThrownBy(() -> HttpMethod.of(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void safeMethodsAreGetHeadOptionsAndTrace() {
        assertThat(STANDARD)
                .filteredOn(HttpMethod::isSafe)
                .containsExactlyInAnyOrder(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS, HttpMethod.TRACE);
    }

    @Test
    void idempotentMethodsAreTheSafeOnesPlusPutAndDelete() {
        assertThat(STANDARD)
                .filteredOn(HttpMethod::isIdempotent)
                .containsExactlyInAnyOrder(
                        HttpMethod.GET,
                        HttpMethod.HEAD,
                        HttpMethod.OPTIONS,
                        HttpMethod.TRACE,
                        HttpMethod.PUT,
                        HttpMethod.DELETE);
    }
}
