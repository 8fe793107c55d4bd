package io.parry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EndpointTest {
    @Test
    void parsesAddressesAndUrlsWithTheirSchemesDefaultPort() {
        assertThat(Endpoint.parse("10.0.0.7:8080").origin()).isEqualTo("http://10.0.0.7:8080");
        assertThat(Endpoint.parse("http://api.internal").origin()).isEqualTo("http://api.internal:80");
        assertThat(Endpoint.parse("https://api.internal/").origin()).isEqualTo("https://api.internal:443");
        assertThat(Endpoint.parse("https://[::1]:8443").authority()).isEqualTo("[::1]:8443");
        assertThat(Endpoint.parse("https://[::1]:8443").secure()).isTrue();
    }

    @Test
    void keepsCleartextAndTlsEndpointsOfOneAddressApart() {
        Endpoint plain = Endpoint.of("api.internal", 8443);
        Endpoint secure = plain.withSecure(true);

        assertThat(secure).isNotEqualTo(plain);
        assertThat(secure.sameAddress(plain)).isFalse();
        assertThat(secure.withWeight(3).secure()).isTrue();
        assertThat(secure.withSecure(false)).isEqualTo(plain);
        assertThat(secure).hasToString("https://api.internal:8443");
        assertThat(plain).hasToString("api.internal:8443");
    }

    @Test
    void refusesAUrlWithAPathOrAnotherScheme() {
        assertThatThrownBy(() -> Endpoint.parse("https://api.internal/v1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Endpoint.parse("ftp://api.internal")).isInstanceOf(IllegalArgumentException.class);
    }
}
