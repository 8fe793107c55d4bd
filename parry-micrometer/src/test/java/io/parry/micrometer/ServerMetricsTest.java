package io.parry.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.parry.http.HttpResponse;
import io.parry.http.MediaType;
import io.parry.server.Handler;
import io.parry.server.Rejection;
import io.parry.server.RequestLimits;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import io.parry.testing.RawConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ServerMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final EndedRequests ended = new EndedRequests();
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CompletableFuture<HttpResponse> never = new CompletableFuture<>();
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private Server server;

    @BeforeEach
    void start() {
        ServerMetrics metrics = ServerMetrics.of(registry);
        Router router = Router.builder()
                .get("/todos/{id}", (ctx, request) -> HttpResponse.ofText(
                                "todo " + ctx.pathParams().get("id"))
                        .toStage())
                .post("/echo", (ctx, request) -> request.body()
                        .aggregate(1024)
                        .thenApply(data -> HttpResponse.of(MediaType.OCTET_STREAM, data)))
                .get("/fail", (ctx, request) -> {
                    throw new IllegalStateException("a bug");
                })
                .get("/never", (ctx, request) -> {
                    entered.countDown();
                    return never;
                })
                .get("/blocking", Handler.blocking((ctx, request) -> {
                    entered.countDown();
                    release.await(10, TimeUnit.SECONDS);
                    return HttpResponse.ofText("done");
                }))
                .build();
        server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .options(o ->
                        o.limits(RequestLimits.builder().maxHeaderSize(1024).build()))
                .handler(router.with(metrics))
                .listener(metrics)
                .listener(ended)
                .build();
        metrics.bind(server);
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(Duration.ofSeconds(2));
    }

    @Test
    void timesRequestsByRouteTemplateNotRawPath() throws Exception {
        get("/todos/1");
        get("/todos/2");
        ended.await(2);

        Timer timer = registry.get("parry.server.requests")
                .tag("route", "/todos/{id}")
                .tag("method", "GET")
                .tag("status", "2xx")
                .timer();
        assertThat(timer.count()).isEqualTo(2);
        assertThat(timer.totalTime(TimeUnit.NANOSECONDS)).isPositive();
        assertThat(registry.find("parry.server.requests").timers())
                .allSatisfy(t -> assertThat(t.getId().getTag("route")).doesNotContain("/todos/1"));
    }

    @Test
    void groupsUnmatchedRequestsUnderOneTag() throws Exception {
        assertThat(get("/nothing/here").statusCode()).isEqualTo(404);
        assertThat(get("/other").statusCode()).isEqualTo(404);
        ended.await(2);

        assertThat(registry.get("parry.server.requests")
                        .tag("route", "UNMATCHED")
                        .tag("status", "4xx")
                        .timer()
                        .count())
                .isEqualTo(2);
    }

    @Test
    void tagsStatusClassAndUnknownMethods() throws Exception {
        assertThat(get("/fail").statusCode()).isEqualTo(500);
        HttpRequest purge = HttpRequest.newBuilder(uri("/todos/1"))
                .method("PURGE", HttpRequest.BodyPublishers.noBody())
                .build();
        client.send(purge, BodyHandlers.discarding());
        ended.await(2);

        assertThat(registry.get("parry.server.requests")
                        .tag("route", "/fail")
                        .tag("status", "5xx")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.server.requests")
                        .tag("method", "OTHER")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void keepsTheSeriesBoundedWhateverMethodsAndPathsAClientInvents() throws Exception {
        for (int i = 0; i < 20; i++) {
            HttpRequest invented = HttpRequest.newBuilder(uri("/random/" + i + "/x" + i))
                    .method("FOOBAR" + i, HttpRequest.BodyPublishers.noBody())
                    .build();
            client.send(invented, BodyHandlers.discarding());
            get("/todos/" + i + "?q=" + i);
        }
        ended.await(40);

        assertThat(registry.find("parry.server.requests").timers())
                .extracting(timer ->
                        timer.getId().getTag("route") + " " + timer.getId().getTag("method"))
                .containsOnly("UNMATCHED OTHER", "/todos/{id} GET");
    }

    @Test
    void tagsRequestsWhoseClientLeftAsClientClosed() throws Exception {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /never HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        }
        ended.await(1);

        assertThat(registry.get("parry.server.requests")
                        .tag("route", "/never")
                        .tag("status", "CLIENT_CLOSED")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void countsRejectionsByKind() throws Exception {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + "b".repeat(2000) + "\r\n\r\n");
            assertThat(connection.readResponse().status()).isEqualTo(431);
        }
        ended.await(1);

        assertThat(registry.get("parry.server.rejections")
                        .tag("reason", Rejection.HEADERS_TOO_LARGE.name())
                        .functionCounter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.server.rejections")
                        .tag("reason", Rejection.URI_TOO_LONG.name())
                        .functionCounter()
                        .count())
                .isZero();
        assertThat(registry.get("parry.server.requests")
                        .tag("route", "UNMATCHED")
                        .tag("status", "4xx")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void gaugesOpenConnections() {
        try (RawConnection first = RawConnection.open("127.0.0.1", server.port());
                RawConnection second = RawConnection.open("127.0.0.1", server.port())) {
            // A response on each proves the server has accepted both.
            first.send("GET /todos/1 HTTP/1.1\r\nHost: a\r\n\r\n").readResponse();
            second.send("GET /todos/2 HTTP/1.1\r\nHost: a\r\n\r\n").readResponse();

            assertThat(registry.get("parry.server.connections").gauge().value()).isEqualTo(2);
        }
    }

    @Test
    void countsBodyBytesInAndOut() throws Exception {
        HttpRequest echo = HttpRequest.newBuilder(uri("/echo"))
                .POST(HttpRequest.BodyPublishers.ofString("x".repeat(100)))
                .build();
        assertThat(client.send(echo, BodyHandlers.ofString()).body()).hasSize(100);
        ended.await(1);

        assertThat(registry.get("parry.server.bytes.in").counter().count()).isEqualTo(100);
        assertThat(registry.get("parry.server.bytes.out").counter().count()).isEqualTo(100);
    }

    @Test
    void gaugesActiveRequestsAndWorkerTasks() throws Exception {
        CompletableFuture<java.net.http.HttpResponse<String>> response =
                client.sendAsync(HttpRequest.newBuilder(uri("/blocking")).build(), BodyHandlers.ofString());
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(registry.get("parry.server.requests.active").gauge().value()).isEqualTo(1);
        assertThat(registry.get("parry.server.workers.tasks").gauge().value()).isEqualTo(1);

        release.countDown();
        assertThat(response.get(10, TimeUnit.SECONDS).body()).isEqualTo("done");
        ended.await(1);
        assertThat(registry.get("parry.server.requests.active").gauge().value()).isZero();
    }

    private java.net.http.HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).build(), BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
