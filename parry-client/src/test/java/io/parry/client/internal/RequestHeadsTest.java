package io.parry.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.parry.client.Endpoint;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Request heads as they leave Netty's encoder: bytes out of an {@link EmbeddedChannel}, no socket. */
class RequestHeadsTest {
    private static final Endpoint ENDPOINT = Endpoint.of("10.0.0.7", 8080);

    private static String encode(Object... messages) {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpRequestEncoder());
        channel.writeOutbound(messages);
        StringBuilder text = new StringBuilder();
        ByteBuf chunk;
        while ((chunk = channel.readOutbound()) != null) {
            text.append(chunk.toString(StandardCharsets.ISO_8859_1));
            chunk.release();
        }
        channel.finishAndReleaseAll();
        return text.toString();
    }

    @Test
    void sendsTheNormalisedPathWithQueryHostAndNoLengthForAnEmptyGet() {
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, "/a/./b/../c?x=1&y")
                .header("Accept", "text/plain")
                .build();

        assertThat(encode(RequestHeads.full(request, ENDPOINT, HttpData.empty())))
                .isEqualTo("GET /a/c?x=1&y HTTP/1.1\r\nhost: 10.0.0.7:8080\r\nAccept: text/plain\r\n\r\n");
    }

    @Test
    void keepsTheCallersHostWhereItWas() {
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, "/")
                .header("x-first", "1")
                .header("Host", "api.example")
                .build();

        assertThat(encode(RequestHeads.full(request, ENDPOINT, HttpData.empty())))
                .isEqualTo("GET / HTTP/1.1\r\nx-first: 1\r\nHost: api.example\r\n\r\n");
    }

    @Test
    void declaresZeroLengthForAnEmptyPost() {
        HttpRequest request = HttpRequest.of(HttpMethod.POST, "/");

        assertThat(encode(RequestHeads.full(request, ENDPOINT, HttpData.empty())))
                .isEqualTo("POST / HTTP/1.1\r\nhost: 10.0.0.7:8080\r\ncontent-length: 0\r\n\r\n");
    }

    @Test
    void replacesTheCallersFramingWithTheBodysLength() {
        HttpRequest request = HttpRequest.builder(HttpMethod.PUT, "/")
                .header("Content-Length", "99")
                .header("Transfer-Encoding", "chunked")
                .build();

        assertThat(encode(RequestHeads.full(request, ENDPOINT, HttpData.ofUtf8("abc"))))
                .isEqualTo("PUT / HTTP/1.1\r\nhost: 10.0.0.7:8080\r\ncontent-length: 3\r\n\r\nabc");
    }

    @Test
    void chunksABodyOfUnknownLengthWithItsTrailers() {
        HttpRequest request = HttpRequest.builder(HttpMethod.POST, "/up")
                .header("content-length", "5")
                .build();

        String wire = encode(
                RequestHeads.head(request, ENDPOINT, -1),
                new DefaultHttpContent(Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII)),
                new DefaultLastHttpContent(
                        Unpooled.EMPTY_BUFFER, RequestHeads.trailers(HttpHeaders.of("x-digest", "abc"))));

        assertThat(wire)
                .isEqualTo("POST /up HTTP/1.1\r\nhost: 10.0.0.7:8080\r\ntransfer-encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\n0\r\nx-digest: abc\r\n\r\n");
    }

    @Test
    void bracketsAnIpv6HostInTheHostField() {
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "/");

        assertThat(encode(RequestHeads.full(request, Endpoint.of("::1", 80), HttpData.empty())))
                .contains("host: [::1]:80\r\n");
    }
}
