package io.parry.client;

import static io.parry.client.Calls.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.routing.Router;
import io.parry.server.websocket.WebSocketEndpoint;
import io.parry.server.websocket.WebSocketOptions;
import io.parry.server.websocket.WebSocketSession;
import io.parry.testing.MessageQueue;
import io.parry.testing.ServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How a client WebSocket ends against a Parry server: closed by its client, and closed by the server while its reader
 * asks for nothing. The server waits a minute for a close's answer, so a session that ends within the test's wait
 * ended because the client answered.
 */
class WebSocketClosingTest {
    private static final WebSocketOptions PATIENT =
            WebSocketOptions.builder().closeTimeout(Duration.ofMinutes(1)).build();
    private static final LinkedBlockingQueue<WebSocketSession> sessions = new LinkedBlockingQueue<>();
    private static final LinkedBlockingQueue<CompletableFuture<Void>> greetings = new LinkedBlockingQueue<>();

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(Router.builder()
            .get("/quiet", WebSocketEndpoint.of(PATIENT, (ctx, handshake) -> handshake
                    .accept(sessions::add)
                    .toStage()))
            .get("/hello", WebSocketEndpoint.of(PATIENT, (ctx, handshake) -> handshake
                    .accept(WebSocketClosingTest::greetThenCloseOnGo)
                    .toStage()))
            .build());

    private final HttpClient http = HttpClient.builder()
            .options(ClientOptions.builder().eventLoopThreads(1).build())
            .build();
    private final WebSocketClient client = WebSocketClient.of(http);

    @AfterEach
    void close() {
        http.close();
        sessions.clear();
        greetings.clear();
    }

    @Test
    void closingTheClientClosesItsWebSocketsWithGoingAwayAndEndsTheirStages() throws Exception {
        WebSocket reading = await(client.connect(endpoint(), "/quiet"));
        MessageQueue<WebSocketMessage> messages = MessageQueue.of(reading.messages());
        WebSocketSession readingSession = nextSession();
        WebSocket idle = await(client.connect(endpoint(), "/quiet"));
        WebSocketSession idleSession = nextSession();

        http.close();

        assertThat(await(readingSession.closed()))
                .isEqualTo(new io.parry.server.websocket.WebSocketClose(1001, "", true));
        assertThat(await(idleSession.closed()).code()).isEqualTo(1001);
        assertThat(reading.closed().toCompletableFuture()).isCompletedWithValue(new WebSocketClose(1001, ""));
        assertThat(idle.closed().toCompletableFuture()).isCompletedWithValue(new WebSocketClose(1001, ""));
        assertThat(messages.ended()).isCompleted();
    }

    @Test
    void seesTheServersCloseBehindAMessageNobodyAskedForAndAnswersIt() throws Exception {
        WebSocket socket = await(client.connect(endpoint(), "/hello"));
        WebSocketSession session = nextSession();
        // Written in full before the client sends "go", so the server's close comes in a later read than "hello".
        await(greetings.poll(10, TimeUnit.SECONDS));

        await(socket.sendText("go"));

        assertThat(await(socket.closed())).isEqualTo(new WebSocketClose(1000, "bye"));
        assertThat(await(session.closed())).isEqualTo(new io.parry.server.websocket.WebSocketClose(1000, "bye", false));
        MessageQueue<WebSocketMessage> messages = MessageQueue.of(socket.messages());
        assertThat(messages.next().text()).isEqualTo("hello");
        await(messages.drain());
    }

    private Endpoint endpoint() {
        return Endpoint.of("127.0.0.1", server.port());
    }

    private static WebSocketSession nextSession() throws InterruptedException {
        WebSocketSession session = sessions.poll(10, TimeUnit.SECONDS);
        assertThat(session).as("a session opened").isNotNull();
        return session;
    }

    /** Sends "hello" at once, and closes with 1000 when the client says "go". */
    private static void greetThenCloseOnGo(WebSocketSession session) {
        sessions.add(session);
        greetings.add(session.sendText("hello").toCompletableFuture());
        session.messages().subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(io.parry.server.websocket.WebSocketMessage message) {
                if (message.text().equals("go")) {
                    session.close(1000, "bye");
                }
            }

            @Override
            public void onError(Throwable failure) {}

            @Override
            public void onComplete() {}
        });
    }
}
