package io.parry.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.parry.client.Endpoint;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Requests as the bytes the client writes, byte for byte, no socket. */
class RequestHeadsTest {
    private static final Endpoint ENDPOINT = Endpoint.of("10.0.0.7", 8080);
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    /** The buffers' bytes as text, each buffer released. */
    private static String encode(ByteBuf... buffers) {
        StringBuilder text = new StringBuilder();
        for (ByteBuf buffer : buffers) {
            try {
                text.append(buffer.toString(StandardCharsets.ISO_8859_1));
            } finally {
                buffer.release();
            }
        }
        return text.toString();
    }

    @Test
    void sendsTheNormalisedPathWithQueryHostAndNoLengthForAnEmptyGet() {
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, "/a/./b/../c?x=1&y")
                .header("Accept", "text/plain")
                .build();

        assertThat(encode(RequestHeads.full(ALLOC, request, ENDPOINT, HttpData.empty())))
                .isEqualTo("GET /a/c?x=1&y HTTP/1.1\r\nhost: 10.0.0.7:8080\r\nAccept: text/plain\r\n\r\n");
    }

    @Test
    void keepsTheCallersHostWhereItWas() {
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, "/")
                .header("x-first", "1")
                .header("Host", "api.example")
                .build();

        assertThat(encode(RequestHeads.full(ALLOC, request, ENDPOINT, HttpData.empty())))
                .isEqualTo("GET / HTTP/1.1\r\nx-first: 1\r\nHost: api.example\r\n\r\n");
    }

    @Test
    void declaresZeroLengthForAnEmptyPost() {
        HttpRequest request = HttpRequest.of(HttpMethod.POST, "/");

        assertThat(encode(RequestHeads.full(ALLOC, request, ENDPOINT, HttpData.empty())))
                .isEqualTo("POST / HTTP/1.1\r\nhost: 10.0.0.7:8080\r\ncontent-length: 0\r\n\r\n");
    }

    @Test
    void replacesTheCallersFramingWithTheBodysLength() {
        HttpRequest request = HttpRequest.builder(HttpMethod.PUT, "/")
                .header("Content-Length", "99")
                .header("Transfer-Encoding", "chunked")
                .build();

        assertThat(encode(RequestHeads.full(ALLOC, request, ENDPOINT, HttpData.ofUtf8("abc"))))
                .isEqualTo("PUT / HTTP/1.1\r\nhost: 10.0.0.7:8080\r\ncontent-length: 3\r\n\r\nabc");
    }

    @Test
    void chunksABodyOfUnknownLengthWithItsTrailers() {
        HttpRequest request = HttpRequest.builder(HttpMethod.POST, "/up")
                .header("content-length", "5")
                .build();

        String wire = encode(
                RequestHeads.head(ALLOC, request, ENDPOINT, -1),
                ChunkedCoding.sizeLine(ALLOC, 5),
                Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII),
                ChunkedCoding.chunkEnd(),
                ChunkedCoding.lastChunk(ALLOC, HttpHeaders.of("x-digest", "abc")));

        assertThat(wire)
                .isEqualTo("POST /up HTTP/1.1\r\nhost: 10.0.0.7:8080\r\ntransfer-encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\n0\r\nx-digest: abc\r\n\r\n");
    }

    @Test
    void declaresTheLengthOfABodyThatFollows() {
        HttpRequest request = HttpRequest.of(HttpMethod.PUT, "/up");

        assertThat(encode(RequestHeads.head(ALLOC, request, ENDPOINT, 70000)))
                .isEqualTo("PUT /up HTTP/1.1\r\nhost: 10.0.0.7:8080\r\ncontent-length: 70000\r\n\r\n");
    }

    @Test
    void sendsALargeFixedBodyAfterItsHead() {
        String body = "x".repeat(5000);
        HttpRequest request = HttpRequest.of(HttpMethod.POST, "/");

        assertThat(encode(RequestHeads.full(ALLOC, request, ENDPOINT, HttpData.ofUtf8(body))))
                .isEqualTo("POST / HTTP/1.1\r\nhost: 10.0.0.7:8080\r\ncontent-length: 5000\r\n\r\n" + body);
    }

    @Test
    void writesObsTextInAFieldValueAsItsLatin1Byte() {
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, "/")
                .header("x-name", "caf\u00e9")
                .build();

        ByteBuf head = RequestHeads.full(ALLOC, request, ENDPOINT, HttpData.empty());
        try {
            int at = head.indexOf(0, head.writerIndex(), (byte) 0xe9);
            assertThat(at).isPositive();
            assertThat(head.toString(at - 3, 6, StandardCharsets.ISO_8859_1)).isEqualTo("caf\u00e9\r\n");
        } finally {
            head.release();
        }
    }

    @Test
    void endsAChunkedBodyWithoutTrailersWithTheLastChunkAlone() {
        assertThat(encode(ChunkedCoding.lastChunk(ALLOC, HttpHeaders.empty()))).isEqualTo("0\r\n\r\n");
        assertThat(encode(ChunkedCoding.sizeLine(ALLOC, 0x1a2b))).isEqualTo("1a2b\r\n");
    }

    @Test
    void bracketsAnIpv6HostInTheHostField() {
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "/");

        assertThat(encode(RequestHeads.full(ALLOC, request, Endpoint.of("::1", 80), HttpData.empty())))
                .contains("host: [::1]:80\r\n");
    }
}
