package io.parry.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.ratelimit.internal.ForwardedClient;
import java.net.InetAddress;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class RateLimitKeyTest {
    private static final Predicate<InetAddress> TEN_NETWORK = address -> address.getAddress()[0] == 10;

    private static HttpRequest forwardedFor(String... values) {
        HttpHeaders.Builder headers = HttpHeaders.builder();
        for (String value : values) {
            headers.add("X-Forwarded-For", value);
        }
        return HttpRequest.builder(HttpMethod.GET, "/").headers(headers.build()).build();
    }

    private static String client(String peer, HttpRequest request) throws Exception {
        return ForwardedClient.of(InetAddress.getByName(peer), request, TEN_NETWORK);
    }

    @Test
    void believesForwardedForOnlyFromATrustedPeer() throws Exception {
        HttpRequest request = forwardedFor("203.0.113.9");
        assertThat(client("198.51.100.1", request)).isEqualTo("198.51.100.1");
        assertThat(client("10.0.0.1", request)).isEqualTo("203.0.113.9");
    }

    @Test
    void takesTheNearestUntrustedHopSoAClientCannotChooseItsKey() throws Exception {
        HttpRequest request = forwardedFor("1.1.1.1, 203.0.113.9", "10.0.0.2");
        assertThat(client("10.0.0.1", request)).isEqualTo("203.0.113.9");
    }

    @Test
    void takesTheFirstHopWhenEveryHopIsTrusted() throws Exception {
        assertThat(client("10.0.0.1", forwardedFor("10.0.0.3, 10.0.0.2"))).isEqualTo("10.0.0.3");
        assertThat(client("10.0.0.1", forwardedFor())).isEqualTo("10.0.0.1");
    }

    @Test
    void neverAsksDnsAboutAHopThatIsNotAnAddress() throws Exception {
        assertThat(client("10.0.0.1", forwardedFor("evil.example, 10.0.0.2"))).isEqualTo("evil.example");
        assertThat(client("10.0.0.1", forwardedFor("[2001:db8::1]"))).isEqualTo("2001:db8:0:0:0:0:0:1");
    }

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
