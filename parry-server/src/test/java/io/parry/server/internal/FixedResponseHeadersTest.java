package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.AsciiString;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

class FixedResponseHeadersTest {
    private static final AsciiString MONDAY = AsciiString.of("Mon, 23 Nov 2026 10:00:00 GMT");
    private static final AsciiString A_SECOND_LATER = AsciiString.of("Mon, 23 Nov 2026 10:00:01 GMT");

    private final FixedResponseHeaders headers = new FixedResponseHeaders();

    @Test
    void givesTheSameBlockToTheSameResponseWithinASecond() {
        HttpResponse hello = HttpResponse.ofText("hello");

        assertThat(headers.of(hello, 5, MONDAY)).isSameAs(headers.of(hello, 5, MONDAY));
    }

    @Test
    void buildsANewBlockWithTheNextSecondsDate() {
        HttpResponse hello = HttpResponse.ofText("hello");
        headers.of(hello, 5, MONDAY);

        assertThat(headers.of(hello, 5, A_SECOND_LATER).get("date")).isEqualTo(A_SECOND_LATER);
    }

    @Test
    void buildsANewBlockForAnotherResponse() {
        headers.of(HttpResponse.ofText("hello"), 5, MONDAY);

        assertThat(headers.of(HttpResponse.ofText("bye"), 3, MONDAY).get("content-length"))
                .hasToString("3");
    }

    @Test
    void keepsNoBlockOfALargeOrStreamedBody() {
        HttpResponse large = HttpResponse.ofText("x".repeat(FixedResponseHeaders.MAX_BODY_BYTES + 1));
        HttpResponse streamed = HttpResponse.of(
                HttpStatus.OK, HttpHeaders.empty(), HttpBody.of((Flow.Publisher<HttpData>) subscriber -> {}));

        assertThat(headers.of(large, FixedResponseHeaders.MAX_BODY_BYTES + 1, MONDAY))
                .isNotSameAs(headers.of(large, FixedResponseHeaders.MAX_BODY_BYTES + 1, MONDAY));
        assertThat(headers.of(streamed, -1, MONDAY)).isNotSameAs(headers.of(streamed, -1, MONDAY));
    }
}
