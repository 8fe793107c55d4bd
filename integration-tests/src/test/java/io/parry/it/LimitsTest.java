package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.Rejection;
import io.parry.server.RequestLimits;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class LimitsTest {
    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(
            Handlers.describing(),
            options -> options.limits(RequestLimits.builder()
                    .maxInitialLineLength(256)
                    .maxHeaderSize(1024)
                    .maxHeaderCount(10)
                    .maxBodySize(1000)
                    .maxConnections(4)
                    .build()));

    @Test
    void answersALongRequestLineWith414() {
        assertRefused("GET /" + "a".repeat(300) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414, Rejection.URI_TOO_LONG);
    }

    @Test
    void answersALargeHeaderBlockWith431() {
        assertRefused(
                "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + "b".repeat(2000) + "\r\n\r\n",
                431,
                Rejection.HEADERS_TOO_LARGE);
    }

    @Test
    void answersTooManyHeaderFieldsWith431() {
        StringBuilder request = new StringBuilder("GET / HTTP/1.1\r\nHost: a\r\n");
        for (int i = 0; i < 11; i++) {
            request.append("X-").append(i).append(": v\r\n");
        }
        assertRefused(request.append("\r\n").toString(), 431, Rejection.HEADERS_TOO_LARGE);
    }

    @Test
    void answersADeclaredLargeBodyWith413AtOnce() {
        // Only the head is sent: the refusal must not wait for a body that never comes.
        assertRefused(
                "POST /aggregate HTTP/1.1\r\nHost: a\r\nContent-Length: 1001\r\n\r\n",
                413,
                Rejection.CONTENT_TOO_LARGE);
    }

    @Test
    void answersAChunkedBodyThatGrowsTooLargeWith413() {
        String chunk = Integer.toHexString(600) + "\r\n" + "x".repeat(600) + "\r\n";
        assertRefused(
                "POST /aggregate HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + chunk
                        + "0\r\n\r\n",
                413,
                Rejection.CONTENT_TOO_LARGE);
    }

    @Test
    void acceptsABodyAtTheLimit() {
        try (RawConnection connection = server.connect()) {
            connection.sendExactly(
                    "POST /aggregate HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n" + "y".repeat(1000));
            assertThat(connection.readResponse().bodyText()).isEqualTo("got 1000 bytes");
        }
    }

    @Test
    void closesConnectionsBeyondTheLimitAtOnce() {
        long before = server.server().rejections(Rejection.TOO_MANY_CONNECTIONS);
        RawConnection[] open = new RawConnection[4];
        try {
            for (int i = 0; i < open.length; i++) {
                open[i] = server.connect();
                open[i].send("GET /" + i + " HTTP/1.1\nHost: a\n\n");
                assertThat(open[i].readResponse().status()).isEqualTo(200);
            }
            try (RawConnection excess = server.connect()) {
                assertThat(excess.isClosedByPeer()).isTrue();
            }
            assertThat(server.server().rejections(Rejection.TOO_MANY_CONNECTIONS))
                    .isEqualTo(before + 1);

            open[0].send("GET /still HTTP/1.1\nHost: a\n\n");
            assertThat(open[0].readResponse().status()).isEqualTo(200);
        } finally {
            for (RawConnection connection : open) {
                if (connection != null) {
                    connection.close();
                }
            }
            awaitNoConnections();
        }
    }

    /** The server counts a connection closed when it sees the close, a moment after the client's. */
    private static void awaitNoConnections() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.server().connections() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(server.server().connections()).isZero();
    }

    private static void assertRefused(String request, int status, Rejection reason) {
        long before = server.server().rejections(reason);
        try (RawConnection connection = server.connect()) {
            connection.sendExactly(request);
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(status);
            assertThat(response.header("content-type")).isEqualTo("application/problem+json");
            assertThat(response.header("connection")).isEqualToIgnoringCase("close");
            assertThat(connection.isClosedByPeer()).isTrue();
        }
        assertThat(server.server().rejections(reason)).isEqualTo(before + 1);
    }
}
