package io.parry.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HopByHopHeadersTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Connection",
                "Keep-Alive",
                "TE",
                "Trailer",
                "Transfer-Encoding",
                "Upgrade",
                "Proxy-Connection",
                "Proxy-Authenticate",
                "Proxy-Authorization"
            })
    void removesAFieldThatIsAlwaysHopByHop(String name) {
        HttpHeaders headers = HttpHeaders.of("accept", "*/*", name, "x", "cookie", "a=1");

        assertThat(HopByHopHeaders.remove(headers)).isEqualTo(HttpHeaders.of("accept", "*/*", "cookie", "a=1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"KEEP-ALIVE", "transfer-ENCODING", "te", "pRoXy-AuThOrIzAtIoN"})
    void matchesNamesWhateverTheirCase(String name) {
        assertThat(HopByHopHeaders.remove(HttpHeaders.of(name, "x"))).isEqualTo(HttpHeaders.empty());
    }

    @Test
    void removesTheFieldsThatConnectionNames() {
        HttpHeaders headers = HttpHeaders.of("Connection", "close, X-Secret", "X-Secret", "1", "X-Public", "2");

        assertThat(HopByHopHeaders.remove(headers)).isEqualTo(HttpHeaders.of("X-Public", "2"));
    }

    @Test
    void readsEveryTokenOfEveryConnectionLine() {
        HttpHeaders headers =
                HttpHeaders.of("connection", " a ,b\t", "a", "1", "b", "2", "Connection", "C", "c", "3", "d", "4");

        assertThat(HopByHopHeaders.remove(headers)).isEqualTo(HttpHeaders.of("d", "4"));
    }

    @Test
    void removesEveryLineOfANamedField() {
        HttpHeaders headers = HttpHeaders.of("x-hop", "1", "Connection", "x-hop", "X-Hop", "2", "via", "1.1 a");

        assertThat(HopByHopHeaders.remove(headers)).isEqualTo(HttpHeaders.of("via", "1.1 a"));
    }

    @Test
    void doesNotMistakeAFieldWhoseNameOnlyStartsLikeAConnectionOption() {
        HttpHeaders headers = HttpHeaders.of("connection", "x-secret-long", "x-secret", "1");

        assertThat(HopByHopHeaders.remove(headers)).isEqualTo(HttpHeaders.of("x-secret", "1"));
    }

    @Test
    void keepsContentLengthEvenWhenConnectionNamesIt() {
        HttpHeaders headers = HttpHeaders.of("content-length", "5", "connection", "Content-Length");

        assertThat(HopByHopHeaders.remove(headers)).isEqualTo(HttpHeaders.of("content-length", "5"));
    }

    @Test
    void returnsTheSameHeadersWhenNoFieldIsHopByHop() {
        HttpHeaders headers = HttpHeaders.of(
                "host", "a", "content-length", "3", "authorization", "Bearer x", "x-forwarded-for", "1.2.3.4");

        assertThat(HopByHopHeaders.remove(headers)).isSameAs(headers);
    }

    @Test
    void tellsEachFieldApartWithTheConnectionFieldLookedUpOnce() {
        HttpHeaders headers = HttpHeaders.of("connection", "x-hop", "x-hop", "1", "content-length", "3", "te", "t");

        assertThat(HopByHopHeaders.isHopByHop(headers, "connection", true)).isTrue();
        assertThat(HopByHopHeaders.isHopByHop(headers, "X-Hop", true)).isTrue();
        assertThat(HopByHopHeaders.isHopByHop(headers, "te", false)).isTrue();
        assertThat(HopByHopHeaders.isHopByHop(headers, "content-length", true)).isFalse();
        assertThat(HopByHopHeaders.isHopByHop(headers, "x-other", true)).isFalse();
    }

    @Test
    void knowsWhichNamesAreAlwaysHopByHop() {
        assertThat(HopByHopHeaders.isAlwaysHopByHop("Upgrade")).isTrue();
        assertThat(HopByHopHeaders.isAlwaysHopByHop("Content-Length")).isFalse();
        assertThat(HopByHopHeaders.isAlwaysHopByHop("Trailers")).isFalse();
        assertThat(HopByHopHeaders.isAlwaysHopByHop("")).isFalse();
    }
}
