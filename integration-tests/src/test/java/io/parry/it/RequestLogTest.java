package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.EndedBy;
import io.parry.server.RequestLog;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RequestLogTest {
    private static final BlockingQueue<RequestLog> logs = new LinkedBlockingQueue<>();
    private static final AtomicInteger afterThrowing = new AtomicInteger();
    private static final AtomicInteger logged = new AtomicInteger();
    private static final CompletableFuture<Void> neverEntered = new CompletableFuture<>();
    private static final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static Server server;

    @BeforeAll
    static void start() {
        Router v2 = Router.builder()
                .get("/items/{id}", (ctx, request) -> HttpResponse.ofText("item")
                        .toStage())
                .build();
        Router router = Router.builder()
                .get("/todos/{id}", (ctx, request) -> HttpResponse.ofText(
                                "todo " + ctx.pathParams().get("id"))
                        .toStage())
                .post("/todos", (ctx, request) -> request.body()
                        .aggregate(1 << 20)
                        .thenApply(body -> HttpResponse.ofText("got " + body.length())))
                .get("/proxied", (ctx, request) -> {
                    ctx.log()
                            .upstream("todo/127.0.0.1:9000")
                            .addUpstreamNanos(5)
                            .addUpstreamNanos(7);
                    return HttpResponse.ofText("from upstream").toStage();
                })
                .get("/never", (ctx, request) -> {
                    neverEntered.complete(null);
                    return new CompletableFuture<>();
                })
                .get("/broken", (ctx, request) -> HttpResponse.of(
                                HttpStatus.OK,
                                HttpHeaders.empty(),
                                io.parry.http.HttpBody.of(new BreaksAfterOneChunk()))
                        .toStage())
                .mount("/v2", v2)
                .build();
        server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(router)
                .listener(log -> {
                    logged.incrementAndGet();
                    logs.add(log);
                })
                .listener(log -> {
                    throw new IllegalStateException("a broken listener");
                })
                .listener(log -> afterThrowing.incrementAndGet())
                .build()
                .start();
    }

    @AfterAll
    static void stop() {
        server.stop(Duration.ofSeconds(5));
    }

    @BeforeEach
    void forgetEarlierLogs() {
        logs.clear();
    }

    @Test
    void logsAnAnsweredGetWithItsRouteAndSizes() throws Exception {
        Instant before = Instant.now();
        HttpRequest request = HttpRequest.newBuilder(uri("/todos/42?full=yes"))
                .header("User-Agent", "tests/1.0")
                .build();
        assertThat(client.send(request, BodyHandlers.ofString()).body()).isEqualTo("todo 42");

        RequestLog log = next();
        assertThat(log.method()).isEqualTo(HttpMethod.GET);
        assertThat(log.path()).isEqualTo("/todos/42");
        assertThat(log.query()).isEqualTo("full=yes");
        assertThat(log.route()).isEqualTo("/todos/{id}");
        assertThat(log.status()).isEqualTo(200);
        assertThat(log.completed()).isTrue();
        assertThat(log.bytesIn()).isZero();
        assertThat(log.bytesOut()).isEqualTo("todo 42".length());
        assertThat(log.userAgent()).isEqualTo("tests/1.0");
        assertThat(log.protocol()).isEqualTo("HTTP/1.1");
        assertThat(log.remoteAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(log.requestId()).isNotBlank();
        assertThat(log.traceId()).hasSize(32);
        assertThat(log.spanId()).hasSize(16);
        assertThat(log.upstream()).isNull();
        assertThat(log.upstreamNanos()).isEqualTo(-1);
        assertThat(log.endedBy()).isNull();
        assertThat(log.durationNanos()).isPositive();
        assertThat(log.start()).isBetween(before.minusMillis(5), Instant.now());
    }

    @Test
    void countsTheRequestBodyOfAPost() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri("/todos"))
                .POST(HttpRequest.BodyPublishers.ofString("x".repeat(1000)))
                .build();
        assertThat(client.send(request, BodyHandlers.ofString()).body()).isEqualTo("got 1000");

        RequestLog log = next();
        assertThat(log.method()).isEqualTo(HttpMethod.POST);
        assertThat(log.route()).isEqualTo("/todos");
        assertThat(log.bytesIn()).isEqualTo(1000);
        assertThat(log.bytesOut()).isEqualTo("got 1000".length());
    }

    @Test
    void namesARouteOfAMountedRouterWithItsPrefix() throws Exception {
        assertThat(client.send(HttpRequest.newBuilder(uri("/v2/items/7")).build(), BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(200);

        assertThat(next().route()).isEqualTo("/v2/items/{id}");
    }

    @Test
    void hasNoRouteWhenNoneMatched() throws Exception {
        assertThat(client.send(HttpRequest.newBuilder(uri("/nowhere")).build(), BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(404);

        RequestLog log = next();
        assertThat(log.status()).isEqualTo(404);
        assertThat(log.route()).isNull();
        assertThat(log.bytesOut()).isPositive();
    }

    @Test
    void keepsWhatTheHandlerSaidAboutItsUpstream() throws Exception {
        client.send(HttpRequest.newBuilder(uri("/proxied")).build(), BodyHandlers.ofString());

        RequestLog log = next();
        assertThat(log.upstream()).isEqualTo("todo/127.0.0.1:9000");
        assertThat(log.upstreamNanos()).isEqualTo(12);
    }

    @Test
    void logsARequestRefusedBeforeAnyHandlerWithItsStatus() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.sendExactly("GET /big?q=1 HTTP/1.1\r\nHost: a\r\nX-Big: " + "b".repeat(20_000) + "\r\n\r\n");
            assertThat(connection.readResponse().status()).isEqualTo(431);
        }

        RequestLog log = next();
        assertThat(log.status()).isEqualTo(431);
        assertThat(log.route()).isNull();
        assertThat(log.method()).isEqualTo(HttpMethod.GET);
        assertThat(log.path()).isEqualTo("/big");
        assertThat(log.query()).isEqualTo("q=1");
        assertThat(log.completed()).isTrue();
        assertThat(log.endedBy()).isEqualTo(EndedBy.CLIENT);
    }

    @Test
    void logsAMalformedRequestLineWithoutMethodOrPath() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.sendExactly("G(T / HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(connection.readResponse().status()).isEqualTo(400);
        }

        RequestLog log = next();
        assertThat(log.status()).isEqualTo(400);
        assertThat(log.method()).isNull();
        assertThat(log.path()).isNull();
    }

    @Test
    void logsARequestWhoseClientLeftBeforeTheResponse() throws Exception {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /never HTTP/1.1\nHost: a\n\n");
            neverEntered.get(5, TimeUnit.SECONDS);
        }

        RequestLog log = next();
        assertThat(log.path()).isEqualTo("/never");
        assertThat(log.route()).isEqualTo("/never");
        assertThat(log.status()).isZero();
        assertThat(log.completed()).isFalse();
        assertThat(log.endedBy()).isEqualTo(EndedBy.CLIENT);
    }

    @Test
    void saysTheClientEndedARequestWhoseBodyWasMalformed() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("POST /todos HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n5\nhello\nzz\n");
            assertThat(connection.readResponse().status()).isEqualTo(400);
        }

        RequestLog log = next();
        assertThat(log.route()).isEqualTo("/todos");
        assertThat(log.endedBy()).isEqualTo(EndedBy.CLIENT);
    }

    @Test
    void logsAResponseWhoseBodyBrokeAsIncomplete() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /broken HTTP/1.1\nHost: a\n\n");
            assertThat(connection.readUntilClose()).startsWith("HTTP/1.1 200");
        }

        RequestLog log = next();
        assertThat(log.status()).isEqualTo(200);
        assertThat(log.completed()).isFalse();
        assertThat(log.bytesOut()).isEqualTo(BreaksAfterOneChunk.SIZE);
    }

    @Test
    void logsPipelinedRequestsInOrderAndHeadWithoutBodyBytes() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("HEAD /todos/1 HTTP/1.1\nHost: a\n\nGET /todos/2 HTTP/1.1\nHost: a\n\n");
            RawResponse head = connection.readResponseHead();
            assertThat(head.status()).isEqualTo(200);
            assertThat(connection.readResponse().bodyText()).isEqualTo("todo 2");
        }

        RequestLog first = next();
        RequestLog second = next();
        assertThat(first.method()).isEqualTo(HttpMethod.HEAD);
        assertThat(first.bytesOut()).isZero();
        assertThat(second.path()).isEqualTo("/todos/2");
        assertThat(second.bytesOut()).isEqualTo("todo 2".length());
    }

    @Test
    void callsTheListenersAfterOneThatThrows() throws Exception {
        client.send(HttpRequest.newBuilder(uri("/todos/1")).build(), BodyHandlers.ofString());
        next();

        // The last listener runs right after the first on the same thread, for every request so far.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (afterThrowing.get() != logged.get() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(afterThrowing.get()).isEqualTo(logged.get()).isPositive();
    }

    private static RequestLog next() {
        try {
            RequestLog log = logs.poll(5, TimeUnit.SECONDS);
            assertThat(log).as("a request log within 5 s").isNotNull();
            return log;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    /** Publishes one chunk, then fails: the response's headers are out and its body cannot complete. */
    private static final class BreaksAfterOneChunk implements Flow.Publisher<HttpData> {
        static final int SIZE = 100;

        @Override
        public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
            subscriber.onSubscribe(new Flow.Subscription() {
                private boolean sent;

                @Override
                public void request(long n) {
                    if (!sent) {
                        sent = true;
                        subscriber.onNext(HttpData.wrap(new byte[SIZE]));
                        subscriber.onError(new IllegalStateException("the source broke"));
                    }
                }

                @Override
                public void cancel() {}
            });
        }
    }
}
