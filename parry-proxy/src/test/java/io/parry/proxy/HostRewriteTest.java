package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.client.Endpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostRewriteTest {
    private static final Endpoint ENDPOINT = Endpoint.of("10.0.0.7", 8080);

    @Test
    void keepSendsTheIncomingHost() {
        assertThat(HostRewrite.keep().apply("shop.example", ENDPOINT)).isEqualTo("shop.example");
    }

    @Test
    void keepFallsBackToTheEndpointWhenTheRequestHadNoHost() {
        assertThat(HostRewrite.keep().apply(null, ENDPOINT)).isEqualTo("10.0.0.7:8080");
        assertThat(HostRewrite.keep().apply("", ENDPOINT)).isEqualTo("10.0.0.7:8080");
    }

    @Test
    void endpointSendsTheEndpointsAuthority() {
        assertThat(HostRewrite.endpoint().apply("shop.example", ENDPOINT)).isEqualTo("10.0.0.7:8080");
        assertThat(HostRewrite.endpoint().apply("shop.example", Endpoint.of("2001:db8::1", 80)))
                .isEqualTo("[2001:db8::1]:80");
    }

    @Test
    void fixedSendsItsHostWhateverCame() {
        HostRewrite fixed = HostRewrite.fixed("api.internal:9000");

        assertThat(fixed.apply("shop.example", ENDPOINT)).isEqualTo("api.internal:9000");
        assertThat(fixed.apply(null, ENDPOINT)).isEqualTo("api.internal:9000");
        assertThat(HostRewrite.fixed("[::1]:8080").apply(null, ENDPOINT)).isEqualTo("[::1]:8080");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "a/b", "a\r\nb", "user@host", "a?b"})
    void fixedRefusesWhatIsNotAHost(String host) {
        assertThatThrownBy(() -> HostRewrite.fixed(host))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("host: " + host
                        + " (expected: a host with an optional port, such as api.internal or [::1]:8080)");
    }

    @Test
    void refusesNulls() {
        assertThatThrownBy(() -> HostRewrite.fixed(null)).hasMessage("host");
        assertThatThrownBy(() -> HostRewrite.keep().apply("h", null)).hasMessage("endpoint");
    }

    @Test
    void describesItself() {
        assertThat(HostRewrite.keep()).hasToString("HostRewrite.keep()");
        assertThat(HostRewrite.endpoint()).hasToString("HostRewrite.endpoint()");
        assertThat(HostRewrite.fixed("a")).hasToString("HostRewrite.fixed(a)");
    }

    @Test
    void equalsTheSameRewrite() {
        assertThat(HostRewrite.fixed("a")).isEqualTo(HostRewrite.fixed("a")).hasSameHashCodeAs(HostRewrite.fixed("a"));
        assertThat(HostRewrite.fixed("a")).isNotEqualTo(HostRewrite.fixed("b"));
        assertThat(HostRewrite.keep()).isNotEqualTo(HostRewrite.endpoint());
        assertThat(HostRewrite.fixed("a").fixedHost()).isEqualTo("a");
        assertThat(HostRewrite.keep().fixedHost()).isNull();
    }
}
