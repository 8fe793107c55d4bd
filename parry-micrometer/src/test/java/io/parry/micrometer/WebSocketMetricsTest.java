package io.parry.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.WebSocket;
import io.parry.client.WebSocketClient;
import io.parry.client.WebSocketMessage;
import io.parry.server.websocket.WebSocketEndpoint;
import io.parry.server.websocket.WebSocketOptions;
import io.parry.server.websocket.WebSocketSession;
import io.parry.testing.MessageQueue;
import io.parry.testing.RawConnection;
import io.parry.testing.ServerExtension;
import java.time.Duration;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class WebSocketMetricsTest {
    /**
     * Waits far longer for a client's close than the test waits for the session to end, so that the session ends
     * because the client closed, not because the server gave up on it.
     */
    private static final WebSocketEndpoint echo = WebSocketEndpoint.of(
            WebSocketOptions.builder().closeTimeout(Duration.ofMinutes(1)).build(),
            (ctx, handshake) -> handshake.accept(Echo::new).toStage());

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(echo);

    @Test
    void countsSessionsMessagesEndingsAndRefusalsTaggedWithTheRouteOnly() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new WebSocketMetrics("echo", echo.counters()).bindTo(registry);

        try (HttpClient http = HttpClient.ofDefault()) {
            WebSocket socket = WebSocketClient.of(http)
                    .connect(Endpoint.of("127.0.0.1", server.port()), "/chat?user=ada")
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            MessageQueue<WebSocketMessage> messages = MessageQueue.of(socket.messages());
            socket.sendText("hello").toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(messages.next().text()).isEqualTo("hello");
            assertThat(registry.get("parry.websocket.sessions").gauge().value()).isEqualTo(1);
            socket.close(1000, "bye").toCompletableFuture().get(10, TimeUnit.SECONDS);
            // The messages end once the server's answer to the close has come, which ends the session.
            messages.drain().get(10, TimeUnit.SECONDS);
            assertThat(socket.closed()
                            .toCompletableFuture()
                            .get(10, TimeUnit.SECONDS)
                            .code())
                    .isEqualTo(1000);
        }
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /chat HTTP/1.1\nHost: h\nUpgrade: websocket\nConnection: Upgrade\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\nSec-WebSocket-Version: 8\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(426);
        }
        Eventually.until(
                "no session open",
                () -> registry.get("parry.websocket.sessions").gauge().value() == 0);

        assertThat(registry.get("parry.websocket.sessions.opened")
                        .functionCounter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.websocket.sessions.ended")
                        .tag("cause", "client_closed")
                        .functionCounter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.websocket.handshakes.refused")
                        .functionCounter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.websocket.messages")
                        .tag("direction", "in")
                        .functionCounter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.websocket.messages")
                        .tag("direction", "out")
                        .functionCounter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.getMeters())
                .flatMap(meter -> meter.getId().getTags())
                .extracting(Tag::getKey)
                .containsOnly("route", "cause", "direction");
        assertThat(registry.getMeters()).map(Meter::getId).allSatisfy(id -> assertThat(id.getTag("route"))
                .isEqualTo("echo"));
    }

    /** Sends every message back. */
    private static final class Echo implements Flow.Subscriber<io.parry.server.websocket.WebSocketMessage> {
        private final WebSocketSession session;

        Echo(WebSocketSession session) {
            this.session = session;
            session.messages().subscribe(this);
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(io.parry.server.websocket.WebSocketMessage message) {
            session.send(message);
        }

        @Override
        public void onError(Throwable failure) {}

        @Override
        public void onComplete() {}
    }
}
