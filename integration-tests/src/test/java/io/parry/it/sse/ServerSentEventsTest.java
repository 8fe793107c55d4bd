package io.parry.it.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.demo.DemoService;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import io.parry.server.sse.ServerSentEvent;
import io.parry.server.sse.ServerSentEvents;
import io.parry.testing.RawConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Server-sent events on a real server: the demo's ticks, resumption, heartbeats, a client that leaves. */
class ServerSentEventsTest {
    private final CompletableFuture<Void> cancelled = new CompletableFuture<>();
    /** Subscribed, never publishing, cancelled when the client leaves. */
    private final Flow.Publisher<ServerSentEvent> silent =
            subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {}

                @Override
                public void cancel() {
                    cancelled.complete(null);
                }
            });

    private final Server server = Server.builder()
            .host("127.0.0.1")
            .port(0)
            .handler(Router.builder()
                    .get("/silent", ServerSentEvents.handler(Duration.ofMillis(50), (ctx, request, last) -> silent))
                    .all("/**", DemoService.handler())
                    .build())
            .build()
            .start();
    private final HttpClient client = HttpClient.newHttpClient();

    @AfterEach
    void stopServer() {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void streamsTheDemosTicksOneByOneAndEnds() throws Exception {
        long start = System.nanoTime();
        HttpResponse<java.util.stream.Stream<String>> response = get("/sse/ticks?n=3", null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream; charset=utf-8");
        List<String> lines = response.body().collect(Collectors.toList());
        assertThat(lines).containsExactly("id: 1", "data: 1", "", "id: 2", "data: 2", "", "id: 3", "data: 3", "");
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
    }

    @Test
    void resumesAfterTheLastEventIdTheClientSaw() throws Exception {
        List<String> lines = get("/sse/ticks?n=2", "5").body().collect(Collectors.toList());

        assertThat(lines).containsExactly("id: 6", "data: 6", "", "id: 7", "data: 7", "");
    }

    @Test
    void sendsHeartbeatsWhileNoEventComes() throws Exception {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /silent HTTP/1.1\nHost: a\n\n");
            assertThat(connection.readResponseHead().status()).isEqualTo(200);
            // The chunk holding ":\n\n": its size line, then the comment.
            assertThat(new String(connection.readBytes(8), java.nio.charset.StandardCharsets.US_ASCII))
                    .isEqualTo("3\r\n:\n\n\r\n");
        }
    }

    @Test
    void cancelsThePublisherWhenTheClientGoesAway() throws Exception {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /silent HTTP/1.1\nHost: a\n\n");
            assertThat(connection.readResponseHead().status()).isEqualTo(200);
        }
        cancelled.get(5, TimeUnit.SECONDS);
    }

    @Test
    void servesTheTodoApiBesideTheLiveRoutes() throws Exception {
        HttpResponse<String> todos = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(todos.statusCode()).isEqualTo(200);
        assertThat(todos.body()).isEqualTo("[]");
    }

    private HttpResponse<java.util.stream.Stream<String>> get(String path, String lastEventId) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofLines());
    }
}
