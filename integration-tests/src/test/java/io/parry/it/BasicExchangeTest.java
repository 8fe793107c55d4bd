package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class BasicExchangeTest {
    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(Handlers.describing());

    @Test
    void answersAJdkClient() throws Exception {
        HttpResponse<String> response = server.client()
                .send(HttpRequest.newBuilder(server.uri("/hello")).build(), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("path=/hello method=GET");
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
        assertThat(response.headers().firstValue("content-length")).hasValue("22");
        assertThat(response.headers().firstValue("date"))
                .hasValueSatisfying(date -> assertThat(date).endsWith(" GMT"));
    }

    @Test
    void keepsAnHttp11ConnectionOpenAcrossRequests() {
        try (RawConnection connection = server.connect()) {
            for (int i = 0; i < 3; i++) {
                connection.send("GET /n" + i + " HTTP/1.1\nHost: localhost\n\n");
                RawResponse response = connection.readResponse();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.bodyText()).isEqualTo("path=/n" + i + " method=GET");
                assertThat(response.header("connection")).isNull();
            }
        }
    }

    @Test
    void closesAfterAnHttp10RequestWithoutKeepAlive() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /old HTTP/1.0\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.version()).isEqualTo("HTTP/1.0");
            assertThat(response.header("connection")).isEqualToIgnoringCase("close");
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void keepsAnHttp10ConnectionThatAsksForKeepAlive() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /a HTTP/1.0\nConnection: keep-alive\n\n");
            assertThat(connection.readResponse().header("connection")).isEqualToIgnoringCase("keep-alive");
            connection.send("GET /b HTTP/1.0\nConnection: keep-alive\n\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("path=/b method=GET");
        }
    }

    @Test
    void honoursConnectionClose() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /bye HTTP/1.1\nHost: localhost\nConnection: close\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("connection")).isEqualToIgnoringCase("close");
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void answersHeadWithTheHeadersOfGetAndNoBody() {
        try (RawConnection connection = server.connect()) {
            connection.send("HEAD /head HTTP/1.1\nHost: localhost\n\n");
            RawResponse head = connection.readResponseHead();
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("content-length")).isEqualTo("22");

            // No body bytes followed: the next response starts right away.
            connection.send("GET /next HTTP/1.1\nHost: localhost\n\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("path=/next method=GET");
        }
    }

    @Test
    void answersOptionsAsteriskWithAllowedMethods() {
        try (RawConnection connection = server.connect()) {
            connection.send("OPTIONS * HTTP/1.1\nHost: localhost\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("allow")).contains("GET", "POST", "OPTIONS");
            assertThat(response.header("content-length")).isEqualTo("0");
        }
    }

    @Test
    void takesThePathAndHostOfAnAbsoluteFormTarget() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET http://example.com:8080/abs?x=1 HTTP/1.1\nHost: other\n\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("path=/abs method=GET");
        }
    }

    @Test
    void removesDotSegmentsBeforeTheHandlerSeesThePath() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /a/b/../../etc/%2e%2e/passwd HTTP/1.1\nHost: localhost\n\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("path=/passwd method=GET");
        }
    }

    @Test
    void mergesRunsOfSlashesBeforeTheHandlerSeesThePath() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET //files//etc///passwd HTTP/1.1\nHost: localhost\n\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("path=/files/etc/passwd method=GET");
        }
    }
}
