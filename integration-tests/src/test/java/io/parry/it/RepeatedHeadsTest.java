package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A client that sends the same header block request after request, as wrk and health checks do. */
class RepeatedHeadsTest {
    private static final String ECHO = "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n";

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(Handlers.describing());

    @Test
    void answersIdenticalPipelinedEchoesInOneWriteEachWithItsBody() {
        StringBuilder requests = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            requests.append(ECHO).append(String.format("b%04d", i));
        }
        try (RawConnection connection = server.connect()) {
            connection.sendExactly(requests.toString());

            for (int i = 0; i < 100; i++) {
                RawResponse response = connection.readResponse();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.bodyText()).isEqualTo(String.format("b%04d", i));
            }
        }
    }

    @Test
    void answersAnIdenticalEchoSentInPiecesAtEverySplit() {
        String request = ECHO + "hello";
        try (RawConnection connection = server.connect()) {
            connection.sendExactly(request);
            assertThat(connection.readResponse().bodyText()).isEqualTo("hello");

            for (int split = 1; split < request.length(); split++) {
                connection.sendExactly(request.substring(0, split));
                connection.sendExactly(request.substring(split));

                assertThat(connection.readResponse().bodyText())
                        .as("split at %d", split)
                        .isEqualTo("hello");
            }
        }
    }

    @Test
    void framesTheBodyByTheNewLengthWhenOnlyTheContentLengthDigitsChange() {
        try (RawConnection connection = server.connect()) {
            connection.sendExactly(ECHO + "hello" + ECHO + "world");
            connection.sendExactly(ECHO.replace("5", "6") + "hello!" + ECHO + "again");

            assertThat(connection.readResponse().bodyText()).isEqualTo("hello");
            assertThat(connection.readResponse().bodyText()).isEqualTo("world");
            assertThat(connection.readResponse().bodyText()).isEqualTo("hello!");
            assertThat(connection.readResponse().bodyText()).isEqualTo("again");
        }
    }
}
