package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.Rejection;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every malformed or hostile request gets 400 problem+json and a closed connection; nothing reaches the handler. */
class MalformedRequestTest {
    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(Handlers.describing());

    static Stream<Arguments> malformedRequests() {
        return Stream.of(
                Arguments.of(
                        "Content-Length with Transfer-Encoding",
                        "POST /aggregate HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                Arguments.of(
                        "differing Content-Length values",
                        "POST /aggregate HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
                Arguments.of(
                        "repeated equal Content-Length values",
                        "POST /aggregate HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello"),
                Arguments.of(
                        "differing Content-Length values in HTTP/1.0",
                        "POST /aggregate HTTP/1.0\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
                Arguments.of(
                        "repeated equal Content-Length values in HTTP/1.0",
                        "POST /aggregate HTTP/1.0\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello"),
                Arguments.of(
                        "Content-Length +5 in HTTP/1.0", "POST /aggregate HTTP/1.0\r\nContent-Length: +5\r\n\r\nhello"),
                Arguments.of(
                        "Content-Length that is not a number",
                        "POST /aggregate HTTP/1.1\r\nHost: a\r\nContent-Length: 5x\r\n\r\nhello"),
                Arguments.of(
                        "negative Content-Length", "POST /aggregate HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n"),
                Arguments.of(
                        "chunk size that is not hex",
                        "POST /aggregate HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"),
                Arguments.of(
                        "chunk size that overflows",
                        "POST /aggregate HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\nhello\r\n0\r\n\r\n"),
                Arguments.of(
                        "chunk data longer than its size",
                        "POST /aggregate HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n"),
                Arguments.of(
                        "Transfer-Encoding other than chunked",
                        "POST /aggregate HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\nhello"),
                Arguments.of(
                        "Transfer-Encoding in HTTP/1.0",
                        "POST /aggregate HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
                Arguments.of("obs-fold", "GET / HTTP/1.1\r\nHost: a\r\nX-Folded: one\r\n two\r\n\r\n"),
                Arguments.of("obs-fold with a tab", "GET / HTTP/1.1\r\nHost: a\r\nX-Folded: one\r\n\ttwo\r\n\r\n"),
                Arguments.of("whitespace before the colon", "GET / HTTP/1.1\r\nHost: a\r\nX-Space : v\r\n\r\n"),
                Arguments.of("bare LF in the header block", "GET / HTTP/1.1\r\nHost: a\nX-A: b\r\n\r\n"),
                Arguments.of("bare LF line endings", "GET / HTTP/1.1\nHost: a\n\n"),
                Arguments.of("bare CR in a header value", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\rc\r\n\r\n"),
                Arguments.of("NUL in a header value", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\0c\r\n\r\n"),
                Arguments.of("NUL in a header name", "GET / HTTP/1.1\r\nHost: a\r\nX-\0A: b\r\n\r\n"),
                Arguments.of("space in a header name", "GET / HTTP/1.1\r\nHost: a\r\nX A: b\r\n\r\n"),
                Arguments.of("missing Host in HTTP/1.1", "GET / HTTP/1.1\r\n\r\n"),
                Arguments.of("two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
                Arguments.of("Host with a path", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n"),
                Arguments.of("Host with a port that is not a number", "GET / HTTP/1.1\r\nHost: a:b\r\n\r\n"),
                Arguments.of("Host with an unclosed IP literal", "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n"),
                Arguments.of("Host with a quote", "GET / HTTP/1.1\r\nHost: a\"b\r\n\r\n"),
                Arguments.of("Host with text after an IP literal", "GET / HTTP/1.1\r\nHost: [::1]x\r\n\r\n"),
                Arguments.of("invalid percent-encoding", "GET /a%zz HTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("truncated percent-encoding", "GET /a%2 HTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("percent-encoded NUL", "GET /a%00b HTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("a fragment in the target", "GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("a backslash in the target", "GET /a\\..\\b HTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("a control character in the target", "GET /a\u0001b HTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("a target that is no form", "GET abc HTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("an unknown scheme", "GET ftp://a/b HTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("a malformed request line", "GET /\r\nHost: a\r\n\r\n"),
                Arguments.of("a method that is not a token", "G(T / HTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("the asterisk form with GET", "GET * HTTP/1.1\r\nHost: a\r\n\r\n"),
                // RFC 9112, section 2.3: the version token is case-sensitive.
                Arguments.of("a lowercase HTTP version", "GET / http/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("a mixed-case HTTP version", "GET / Http/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("two spaces before the target", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("a tab before the version", "GET /\tHTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("a version with two-digit numbers", "GET / HTTP/01.1\r\nHost: a\r\n\r\n"),
                Arguments.of(
                        "chunk extensions over 16 KiB in all",
                        "POST /aggregate HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + ("1;x=" + "y".repeat(1_000) + "\r\na\r\n").repeat(40) + "0\r\n\r\n"),
                Arguments.of(
                        "a chunk extension longer than the line limit",
                        "POST /aggregate HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;x="
                                + "y".repeat(10_000) + "\r\nhello\r\n0\r\n\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedRequests")
    void answersBadRequestAndCloses(String description, String request) {
        long before = server.server().rejections(Rejection.BAD_REQUEST);
        try (RawConnection connection = server.connect()) {
            connection.sendExactly(request);
            RawResponse response = connection.readResponse();

            assertThat(response.status()).as(description).isEqualTo(400);
            assertThat(response.header("content-type")).isEqualTo("application/problem+json");
            assertThat(response.header("connection")).isEqualToIgnoringCase("close");
            assertThat(response.bodyText()).contains("\"status\":400");
            assertThat(connection.isClosedByPeer())
                    .as("closed after %s", description)
                    .isTrue();
        }
        assertThat(server.server().rejections(Rejection.BAD_REQUEST)).isEqualTo(before + 1);
    }

    @Test
    void answersEarlierPipelinedRequestsBeforeTheRefusal() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /first HTTP/1.1\nHost: a\n\nGET /second HTTP/1.1\n\n");

            assertThat(connection.readResponse().bodyText()).isEqualTo("path=/first method=GET");
            assertThat(connection.readResponse().status()).isEqualTo(400);
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void leavesOtherConnectionsUntouched() {
        try (RawConnection healthy = server.connect();
                RawConnection hostile = server.connect()) {
            healthy.send("GET /before HTTP/1.1\nHost: a\n\n");
            assertThat(healthy.readResponse().status()).isEqualTo(200);

            hostile.sendExactly("GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n");
            assertThat(hostile.readResponse().status()).isEqualTo(400);

            healthy.send("GET /after HTTP/1.1\nHost: a\n\n");
            assertThat(healthy.readResponse().bodyText()).isEqualTo("path=/after method=GET");
        }
    }

    @Test
    void answersAnUnsupportedVersionWith505AndCloses() {
        try (RawConnection connection = server.connect()) {
            connection.sendExactly("GET / HTTP/2.7\r\nHost: a\r\n\r\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(505);
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void answersATransferCodingItCannotDecodeWith501AndCloses() {
        try (RawConnection connection = server.connect()) {
            connection.sendExactly("POST /aggregate HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                    + "5\r\nhello\r\n0\r\n\r\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(501);
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void acceptsAnHttp10RequestWithoutHost() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /old HTTP/1.0\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(200);
        }
    }
}
