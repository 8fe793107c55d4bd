package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A handler that answers without reading the request body: small rests are drained, large ones close. */
class UnreadBodyTest {
    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(
            (ctx, request) -> HttpResponse.ofText("ignored the body").toStage());

    @Test
    void drainsASmallUnreadBodyAndKeepsTheConnection() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /a HTTP/1.1\nHost: a\nContent-Length: 1000\n\n" + "x".repeat(1000));
            RawResponse first = connection.readResponse();
            connection.send("GET /b HTTP/1.1\nHost: a\n\n");

            assertThat(first.header("connection")).isNull();
            assertThat(connection.readResponse().bodyText()).isEqualTo("ignored the body");
        }
    }

    @Test
    void closesRatherThanDrainALargeUnreadBody() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /a HTTP/1.1\nHost: a\nContent-Length: 5000000\n\n" + "x".repeat(1000));
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("connection")).isEqualToIgnoringCase("close");
        }
    }

    @Test
    void closesRatherThanDrainAnUnreadChunkedBody() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /a HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n5\nhello\n");
            RawResponse response = connection.readResponse();

            assertThat(response.header("connection")).isEqualToIgnoringCase("close");
        }
    }
}
