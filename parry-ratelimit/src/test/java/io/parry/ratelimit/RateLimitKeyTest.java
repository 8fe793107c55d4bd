package io.parry.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import org.junit.jupiter.api.Test;

class RateLimitKeyTest {
    @Test
    void combinesKeysWithoutCollisions() {
        RateLimitKey both = RateLimitKey.all(RateLimitKey.header("a"), RateLimitKey.header("b"));
        HttpRequest one = HttpRequest.builder(HttpMethod.GET, "/")
                .headers(HttpHeaders.of("a", "x,y", "b", "z"))
                .build();
        HttpRequest other = HttpRequest.builder(HttpMethod.GET, "/")
                .headers(HttpHeaders.of("a", "x", "b", "y,z"))
                .build();
        assertThat(both.key(null, one)).isNotEqualTo(both.key(null, other));
    }

    @Test
    void putsRequestsWithoutTheHeaderInOneBucket() {
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, "/").build();
        assertThat(RateLimitKey.header("X-Api-Key").key(null, request)).isEmpty();
    }
}
