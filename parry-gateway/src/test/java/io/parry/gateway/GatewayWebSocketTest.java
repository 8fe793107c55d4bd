package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.WebSocket;
import io.parry.client.WebSocketClient;
import io.parry.client.WebSocketMessage;
import io.parry.client.WebSocketRefusedException;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.testing.WebSocketUpstream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** WebSocket routes of the gateway: echo, allowed origins, the admin count, and sessions across a reload. */
class GatewayWebSocketTest {
    private final WebSocketUpstream alpha = WebSocketUpstream.start();
    private final WebSocketUpstream beta = WebSocketUpstream.start();
    private final HttpClient http = HttpClient.ofDefault();
    private final WebSocketClient client = WebSocketClient.of(http);

    @TempDir
    Path dir;

    @AfterEach
    void close() {
        http.close();
        alpha.close();
        beta.close();
    }

    @Test
    void echoesThroughAWebSocketRouteAndCountsTheSessionInTheAdminView() throws Exception {
        try (TestGateway gateway = TestGateway.start(dir, routeTo("alpha"), ports(), false)) {
            WebSocket socket = connect(gateway, "https://app.example");
            Messages messages = Messages.of(socket);

            await(socket.sendText("over the gateway"));

            assertThat(messages.next().text()).isEqualTo("over the gateway");
            assertThat(gateway.admin("/admin/upstreams").body()).contains("\"webSocketSessions\":1");
        }
    }

    @Test
    void refusesAHandshakeFromAnotherOriginWith403() {
        try (TestGateway gateway = TestGateway.start(dir, routeTo("alpha"), ports(), false)) {
            Throwable refused = catchFailure(client.connect(
                    Endpoint.of("127.0.0.1", gateway.gateway().port()), handshake("https://evil.example")));

            assertThat(refused).isInstanceOf(WebSocketRefusedException.class);
            assertThat(((WebSocketRefusedException) refused).status().code()).isEqualTo(403);
            assertThat(alpha.openSessions()).isZero();
        }
    }

    @Test
    void keepsAnOpenSessionOnItsUpstreamAcrossAReload() throws Exception {
        try (TestGateway gateway = TestGateway.start(dir, routeTo("alpha"), ports(), false)) {
            WebSocket before = connect(gateway, "https://app.example");
            Messages messages = Messages.of(before);
            alpha.awaitHandshake();

            gateway.writeFile(routeTo("beta"));
            assertThat(gateway.gateway().reload().version()).isEqualTo(2);
            WebSocket after = connect(gateway, "https://app.example");
            beta.awaitHandshake();
            await(before.sendText("still here"));

            assertThat(messages.next().text()).isEqualTo("still here");
            assertThat(alpha.openSessions()).isEqualTo(1);
            assertThat(beta.openSessions()).isEqualTo(1);
            await(after.close(1000, ""));
        }
    }

    private WebSocket connect(TestGateway gateway, String origin) {
        return await(client.connect(Endpoint.of("127.0.0.1", gateway.gateway().port()), handshake(origin)));
    }

    private static HttpRequest handshake(String origin) {
        return HttpRequest.of(HttpMethod.GET, "/ws/echo").withHeaders(HttpHeaders.of("origin", origin));
    }

    private static <T> T await(CompletionStage<T> stage) {
        return stage.toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
    }

    private static Throwable catchFailure(CompletionStage<?> stage) {
        try {
            await(stage);
        } catch (CompletionException e) {
            return e.getCause();
        }
        throw new AssertionError("the stage did not fail");
    }

    private String routeTo(String upstream) {
        return """
                listener: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0 }
                upstreams:
                  alpha: { endpoints: ["127.0.0.1:${ALPHA_PORT}"] }
                  beta: { endpoints: ["127.0.0.1:${BETA_PORT}"] }
                routes:
                  - name: echo
                    match: { prefix: /ws }
                    proxy:
                      upstream: %s
                      webSocket: { idleTimeout: 10m, allowedOrigins: [https://app.example] }
                """
                .formatted(upstream);
    }

    private Map<String, String> ports() {
        return Map.of("ALPHA_PORT", Integer.toString(alpha.port()), "BETA_PORT", Integer.toString(beta.port()));
    }

    /** The messages of a socket, asked for one at a time. */
    private static final class Messages implements Flow.Subscriber<WebSocketMessage> {
        private final LinkedBlockingQueue<WebSocketMessage> received = new LinkedBlockingQueue<>();
        private final CompletableFuture<Flow.Subscription> subscription = new CompletableFuture<>();

        static Messages of(WebSocket socket) {
            Messages messages = new Messages();
            socket.messages().subscribe(messages);
            return messages;
        }

        WebSocketMessage next() throws Exception {
            subscription.get(5, TimeUnit.SECONDS).request(1);
            WebSocketMessage next = received.poll(5, TimeUnit.SECONDS);
            assertThat(next).as("a message within 5 s").isNotNull();
            return next;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription.complete(subscription);
        }

        @Override
        public void onNext(WebSocketMessage item) {
            received.add(item);
        }

        @Override
        public void onError(Throwable throwable) {}

        @Override
        public void onComplete() {}
    }
}
