package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.testing.MessageQueue;
import io.parry.testing.WebSocketUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WebSocketClientTest {
    private final HttpClient http = HttpClient.builder()
            .options(ClientOptions.builder().eventLoopThreads(1).build())
            .build();
    private final WebSocketClient client = WebSocketClient.of(http);
    private final WebSocketUpstream upstream = WebSocketUpstream.start();

    @AfterEach
    void close() {
        http.close();
        upstream.close();
    }

    private Endpoint endpoint() {
        return Endpoint.of("127.0.0.1", upstream.port());
    }

    @Test
    void exchangesTextAndBinaryMessagesWithAnEchoServer() throws Exception {
        WebSocket socket = await(client.connect(endpoint(), "/echo"));
        MessageQueue<WebSocketMessage> messages = MessageQueue.of(socket.messages());

        await(socket.sendText("héllo"));
        WebSocketMessage text = messages.next();
        await(socket.sendBinary(new byte[] {1, 2, 3}));
        WebSocketMessage binary = messages.next();

        assertThat(text.isText()).isTrue();
        assertThat(text.text()).isEqualTo("héllo");
        assertThat(binary.isText()).isFalse();
        assertThat(binary.data().toByteArray()).containsExactly(1, 2, 3);
        assertThat(http.poolStats(endpoint()).isEmpty()).isTrue();
    }

    @Test
    void sendsTheHandshakeFieldsAndKeepsTheCallersOwn() {
        HttpRequest request =
                HttpRequest.of(HttpMethod.GET, "/echo").withHeaders(HttpHeaders.of("origin", "http://a.example"));

        await(client.connect(endpoint(), request));
        HttpHeaders handshake = upstream.awaitHandshake();

        assertThat(handshake.get("origin")).isEqualTo("http://a.example");
        assertThat(handshake.get("upgrade")).isEqualToIgnoringCase("websocket");
        assertThat(handshake.get("sec-websocket-version")).isEqualTo("13");
        assertThat(handshake.get("sec-websocket-key")).hasSize(24);
    }

    @Test
    void answersTheServersCloseAndCompletesItsMessages() {
        WebSocket socket = await(client.connect(endpoint(), "/echo"));
        MessageQueue<WebSocketMessage> messages = MessageQueue.of(socket.messages());

        upstream.closeAll(1001, "going away");

        assertThat(await(socket.closed())).isEqualTo(new WebSocketClose(1001, "going away"));
        assertThat(upstream.awaitCloseCode()).isEqualTo(1001);
        await(messages.ended());
    }

    @Test
    void closesWithItsCodeAndTheServerAnswers() {
        WebSocket socket = await(client.connect(endpoint(), "/echo"));

        await(socket.close(4000, "done"));

        assertThat(upstream.awaitCloseCode()).isEqualTo(4000);
        assertThat(await(socket.closed()).code()).isEqualTo(4000);
    }

    @Test
    void reportsAnAbnormalCloseWhenTheConnectionBreaks() {
        WebSocket socket = await(client.connect(endpoint(), "/echo"));
        MessageQueue<WebSocketMessage> messages = MessageQueue.of(socket.messages());

        upstream.abortAll();

        assertThat(await(socket.closed()).code()).isEqualTo(WebSocketClose.ABNORMAL);
        assertThat(failure(messages.ended())).isInstanceOf(ConnectionClosedException.class);
    }

    @Test
    void refusesA101WhoseAcceptDoesNotAnswerTheKey() {
        try (RawUpstream raw = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 101 Switching Protocols\nUpgrade: websocket\nConnection: Upgrade\n"
                    + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\n\n");
            connection.awaitClose();
        })) {
            Throwable failure = failure(client.connect(raw.endpoint(), "/"));

            assertThat(failure)
                    .isInstanceOf(InvalidResponseException.class)
                    .hasMessageContaining("Sec-WebSocket-Accept");
        }
    }

    @Test
    void failsWithTheResponseWhenTheServerRefusesTheUpgrade() {
        try (RawUpstream raw = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 403 Forbidden\nContent-Length: 0\n\n");
            connection.awaitClose();
        })) {
            Throwable failure = failure(client.connect(raw.endpoint(), "/"));

            assertThat(failure).isInstanceOf(WebSocketRefusedException.class);
            assertThat(((WebSocketRefusedException) failure).status().code()).isEqualTo(403);
        }
    }
}
