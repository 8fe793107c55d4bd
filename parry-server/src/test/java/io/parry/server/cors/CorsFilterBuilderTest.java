package io.parry.server.cors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpMethod;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CorsFilterBuilderTest {

    @Test
    void rejectsCredentialsWithAnyOriginAsFetchDoes() {
        assertThatThrownBy(() -> CorsFilter.builder()
                        .allowAnyOrigin()
                        .allowCredentials(true)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allowCredentials with any origin (expected: explicit origins)");
    }

    @Test
    void rejectsAFilterThatAllowsNoOrigin() {
        assertThatThrownBy(() -> CorsFilter.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allowOrigins: none (expected: at least one origin, or allowAnyOrigin())");
        assertThatThrownBy(() -> CorsFilter.builder().allowOrigins().build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsAnOriginWithAPath() {
        assertThatThrownBy(() -> CorsFilter.builder()
                        .allowOrigins("https://app.example/")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allowOrigins: https://app.example/ (expected: scheme://host[:port] without a path)");
    }

    @Test
    void rejectsOriginsThatAreNotSchemeHostAndPort() {
        for (String origin : new String[] {
            "app.example", "https://", "https://user@app.example", "https://app.example?x", "https://app.example:", ""
        }) {
            assertThatThrownBy(() -> CorsFilter.builder().allowOrigins(origin).build())
                    .as(origin)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("allowOrigins: ");
        }
    }

    @Test
    void rejectsStarAndNullAsOriginNames() {
        assertThatThrownBy(() -> CorsFilter.builder().allowOrigins("*").build())
                .hasMessage("allowOrigins: * (expected: scheme://host[:port] without a path; use allowAnyOrigin())");
        assertThatThrownBy(() -> CorsFilter.builder().allowOrigins("null").build())
                .hasMessageContaining("the opaque origin null is never allowed by name");
    }

    @Test
    void acceptsOriginsOfOtherSchemesAndIpv6Hosts() {
        CorsFilter cors = CorsFilter.builder()
                .allowOrigins("chrome-extension://abcdefgh", "http://[::1]:8080", "http://localhost:80")
                .build();

        assertThat(cors.toString()).contains("[chrome-extension://abcdefgh, http://[::1]:8080, http://localhost]");
    }

    @Test
    void rejectsStarAsAnAllowedHeaderName() {
        assertThatThrownBy(() ->
                        CorsFilter.builder().allowAnyOrigin().allowHeaders("*").build())
                .hasMessage("allowHeaders: * (expected: header names; use allowAnyHeader())");
    }

    @Test
    void rejectsAHeaderNameThatIsNotAToken() {
        assertThatThrownBy(() -> CorsFilter.builder()
                        .allowAnyOrigin()
                        .exposeHeaders("x trace")
                        .build())
                .hasMessage("exposeHeaders: x trace (expected: a header name)");
    }

    @Test
    void rejectsExposingEveryHeaderWithCredentials() {
        assertThatThrownBy(() -> CorsFilter.builder()
                        .allowOrigins("https://app.example")
                        .allowCredentials(true)
                        .exposeHeaders("*")
                        .build())
                .hasMessage("exposeHeaders: * with allowCredentials (expected: header names)");
    }

    @Test
    void acceptsExposingEveryHeaderWithoutCredentials() {
        assertThat(CorsFilter.builder().allowAnyOrigin().exposeHeaders("*").build())
                .isNotNull();
    }

    @Test
    void rejectsANegativeMaxAge() {
        assertThatThrownBy(() -> CorsFilter.builder()
                        .allowAnyOrigin()
                        .maxAge(Duration.ofSeconds(-1))
                        .build())
                .hasMessage("maxAge: PT-1S (expected: >= 0)");
    }

    @Test
    void rejectsNullArguments() {
        assertThatThrownBy(
                        () -> CorsFilter.builder().allowOrigins((String) null).build())
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> CorsFilter.builder().maxAge(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void letsTheLastOfAllowOriginsAndAllowAnyOriginWin() {
        CorsFilter explicit = CorsFilter.builder()
                .allowAnyOrigin()
                .allowOrigins("https://app.example")
                .allowCredentials(true)
                .build();
        CorsFilter any =
                explicit.toBuilder().allowCredentials(false).allowAnyOrigin().build();

        assertThat(explicit.toString()).contains("origins=[https://app.example]");
        assertThat(any.toString()).contains("origins=*");
    }

    @Test
    void toBuilderKeepsEverySetting() {
        CorsFilter cors = CorsFilter.builder()
                .allowOrigins("https://app.example")
                .allowMethods(HttpMethod.PUT)
                .allowHeaders("content-type")
                .allowAnyHeader()
                .exposeHeaders("location")
                .allowCredentials(true)
                .maxAge(Duration.ofMinutes(10))
                .build();

        assertThat(cors.toBuilder().build().toString())
                .isEqualTo(cors.toString())
                .isEqualTo("CorsFilter(origins=[https://app.example], methods=[PUT, GET, HEAD, POST],"
                        + " headers=* and [content-type], exposedHeaders=[location], credentials=true,"
                        + " maxAge=PT10M)");
    }
}
