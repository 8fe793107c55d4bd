package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.eventually;
import static io.parry.client.Calls.failure;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.testing.ServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ConnectionPoolTest {
    private static final String OK = "HTTP/1.1 200 OK\nContent-Length: 2\n\nok";

    /** Answers with the client's port: one port, one connection. */
    @RegisterExtension
    static final ServerExtension server = ServerExtension.of((ctx, request) ->
            HttpResponse.ofText(String.valueOf(ctx.remoteAddress().getPort())).toStage());

    private HttpClient client;

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    /** A client with one event loop, so each limit applies to all its calls. */
    private HttpClient client(Consumer<PoolOptions.Builder> pool) {
        return client(1, pool);
    }

    private HttpClient client(int loops, Consumer<PoolOptions.Builder> pool) {
        PoolOptions.Builder options = PoolOptions.builder();
        pool.accept(options);
        client = HttpClient.builder()
                .options(ClientOptions.builder()
                        .eventLoopThreads(loops)
                        .pool(options.build())
                        .build())
                .build();
        return client;
    }

    /** An upstream that counts each request down on {@code received} and answers it once {@code answer} is open. */
    private static RawUpstream answeringWhenLet(CountDownLatch received, CountDownLatch answer) {
        return RawUpstream.start(connection -> {
            while (connection.readRequest() != null) {
                received.countDown();
                answer.await(10, TimeUnit.SECONDS);
                connection.send(OK);
            }
        });
    }

    private static HttpRequest get() {
        return HttpRequest.of(HttpMethod.GET, "/");
    }

    @Test
    void reusesOneConnectionForSequentialCallsEvenWithSeveralEventLoops() {
        HttpClient client = client(4, pool -> {});
        Endpoint endpoint = Endpoint.of("127.0.0.1", server.port());

        String first = text(await(client.send(endpoint, get())));
        String second = text(await(client.send(endpoint, get())));
        String third = text(await(client.send(endpoint, get())));

        assertThat(second).isEqualTo(first);
        assertThat(third).isEqualTo(first);
        assertThat(client.poolStats(endpoint)).isEqualTo(new PoolStats(0, 1, 0));
        assertThat(client.poolStats(endpoint.withWeight(5)))
                .as("weights do not split pools")
                .isEqualTo(new PoolStats(0, 1, 0));
        assertThat(client.poolStats(Endpoint.of("127.0.0.1", 1))).matches(PoolStats::isEmpty);
    }

    @Test
    void servesManyConcurrentCallsWithinTheConnectionLimitOfEachLoop() {
        HttpClient client = client(2, pool -> pool.maxConnections(3));
        Endpoint endpoint = Endpoint.of("127.0.0.1", server.port());
        List<CompletableFuture<String>> calls = new ArrayList<>();

        for (int i = 0; i < 300; i++) {
            calls.add(client.send(endpoint, get())
                    .thenCompose(response -> response.body().aggregate(100).thenApply(HttpData::toStringUtf8))
                    .toCompletableFuture());
        }

        Set<String> ports = new HashSet<>();
        calls.forEach(call -> ports.add(await(call)));
        assertThat(ports.size()).isBetween(1, 6);
        PoolStats stats = client.poolStats(endpoint);
        assertThat(stats.active()).isZero();
        assertThat(stats.pending()).isZero();
        assertThat(stats.idle()).isEqualTo(ports.size());
    }

    @Test
    void countsAConnectionActiveWhileItsCallRuns() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            received.countDown();
            answer.await(10, TimeUnit.SECONDS);
            connection.send(OK);
            connection.awaitClose();
        })) {
            HttpClient client = client(pool -> {});
            CompletionStage<HttpResponse> call = client.send(upstream.endpoint(), get());
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(client.poolStats(upstream.endpoint())).isEqualTo(new PoolStats(1, 0, 0));

            answer.countDown();
            assertThat(text(await(call))).isEqualTo("ok");
            assertThat(client.poolStats(upstream.endpoint())).isEqualTo(new PoolStats(0, 1, 0));
        }
    }

    @Test
    void failsAtOnceWhenEveryConnectionIsBusyAndNoCallMayWait() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        try (RawUpstream upstream = answeringWhenLet(received, answer)) {
            HttpClient client = client(pool -> pool.maxConnections(1).maxPending(0));
            CompletionStage<HttpResponse> busy = client.send(upstream.endpoint(), get());
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();

            Throwable refused = failure(client.send(upstream.endpoint(), get()));

            assertThat(refused).isInstanceOf(PoolExhaustedException.class);
            assertThat(((ClientException) refused).requestSent()).isFalse();
            answer.countDown();
            assertThat(text(await(busy))).isEqualTo("ok");
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");
            assertThat(upstream.accepted()).isEqualTo(1);
            assertThat(client.poolStats(upstream.endpoint())).isEqualTo(new PoolStats(0, 1, 0));
        }
    }

    @Test
    void tellsThatARequestWasWrittenOnlyOnceTheConnectionItWaitedForTookIt() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        try (RawUpstream upstream = answeringWhenLet(received, answer)) {
            HttpClient client = client(pool -> pool.maxConnections(1));
            CompletableFuture<Long> firstWritten = new CompletableFuture<>();
            CompletionStage<HttpResponse> first =
                    client.send(upstream.endpoint(), get(), ClientTimeouts.ofDefault(), firstWritten::complete);
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Long> queuedWritten = new CompletableFuture<>();
            CompletionStage<HttpResponse> queued =
                    client.send(upstream.endpoint(), get(), ClientTimeouts.ofDefault(), queuedWritten::complete);
            eventually(() -> client.poolStats(upstream.endpoint()).pending() == 1);

            long freed = System.nanoTime();
            answer.countDown();

            assertThat(text(await(first))).isEqualTo("ok");
            assertThat(text(await(queued))).isEqualTo("ok");
            assertThat(firstWritten.join()).isLessThan(freed);
            assertThat(queuedWritten.join()).isGreaterThan(freed);
        }
    }

    @Test
    void queuesUpToMaxPendingCallsAndServesThemOnTheFreedConnection() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        try (RawUpstream upstream = answeringWhenLet(received, answer)) {
            HttpClient client = client(pool -> pool.maxConnections(1).maxPending(1));
            CompletionStage<HttpResponse> first = client.send(upstream.endpoint(), get());
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();
            CompletionStage<HttpResponse> queued = client.send(upstream.endpoint(), get());
            eventually(() -> client.poolStats(upstream.endpoint()).pending() == 1);

            assertThat(failure(client.send(upstream.endpoint(), get()))).isInstanceOf(PoolExhaustedException.class);

            answer.countDown();
            assertThat(text(await(first))).isEqualTo("ok");
            assertThat(text(await(queued))).isEqualTo("ok");
            assertThat(upstream.accepted()).isEqualTo(1);
            assertThat(client.poolStats(upstream.endpoint())).isEqualTo(new PoolStats(0, 1, 0));
        }
    }

    @Test
    void closesAConnectionIdleForLongerThanTheIdleTimeout() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        long[] idleSince = new long[1];
        long[] closedAt = new long[1];
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send(OK);
            idleSince[0] = System.nanoTime();
            if (connection.awaitClose()) {
                closedAt[0] = System.nanoTime();
                closed.countDown();
            }
        })) {
            HttpClient client = client(pool -> pool.idleTimeout(Duration.ofMillis(200)));
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");

            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(Duration.ofNanos(closedAt[0] - idleSince[0]))
                    .isBetween(Duration.ofMillis(190), Duration.ofSeconds(2));
            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        }
    }

    @Test
    void doesNotReuseAConnectionOlderThanItsMaxLifetime() throws Exception {
        CountDownLatch firstClosed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            while (connection.readRequest() != null) {
                Thread.sleep(300); // The connection outlives its lifetime while it carries the call.
                connection.send(OK);
            }
            firstClosed.countDown();
        })) {
            HttpClient client = client(pool -> pool.maxLifetime(Duration.ofMillis(250)));

            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");
            assertThat(firstClosed.await(10, TimeUnit.SECONDS))
                    .as("closed when its call ended")
                    .isTrue();
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");

            assertThat(upstream.accepted()).isEqualTo(2);
        }
    }

    @Test
    void opensAFreshConnectionWhenTheUpstreamClosedTheIdleOne() throws Exception {
        CountDownLatch firstClosed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send(OK);
            connection.close();
            firstClosed.countDown();
        })) {
            HttpClient client = client(pool -> {});
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");
            assertThat(firstClosed.await(10, TimeUnit.SECONDS)).isTrue();
            eventually(() -> client.poolStats(upstream.endpoint()).idle() == 0);

            // A POST is never sent twice, so this passes only if the dead connection was not handed out.
            HttpRequest post = HttpRequest.builder(HttpMethod.POST, "/")
                    .body(HttpBody.ofUtf8("once"))
                    .build();
            assertThat(text(await(client.send(upstream.endpoint(), post)))).isEqualTo("ok");
            assertThat(upstream.accepted()).isEqualTo(2);
        }
    }

    @Test
    void neverFailsAnIdempotentCallBecauseTheUpstreamClosedItsPooledConnection() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send(OK); // Keep-alive by default, then closed at once: the close races the next call.
        })) {
            HttpClient client = client(pool -> pool.maxConnections(1));
            for (int i = 0; i < 50; i++) {
                assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");
            }
            assertThat(upstream.accepted()).isEqualTo(50);
        }
    }

    @Test
    void closesAnIdleConnectionThatReceivesBytes() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            if (connection.readRequest() == null) {
                return;
            }
            connection.send(OK);
            connection.send("HTTP/1.1 200 OK\nContent-Length: 5\n\nextra");
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            HttpClient client = client(pool -> {});
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");

            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");
            assertThat(upstream.accepted()).isEqualTo(2);
        }
    }

    @Test
    void closesTheConnectionWhenEitherSideSaysConnectionClose() throws Exception {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            UpstreamConnection.RawRequest request = connection.readRequest();
            connection.send(
                    request.header("x-close-response") != null
                            ? "HTTP/1.1 200 OK\nConnection: close\nContent-Length: 2\n\nok"
                            : OK);
            connection.awaitClose();
        })) {
            HttpClient client = client(pool -> {});
            HttpRequest askedToClose = HttpRequest.builder(HttpMethod.GET, "/")
                    .header("connection", "close")
                    .build();
            HttpRequest toldToClose = HttpRequest.builder(HttpMethod.GET, "/")
                    .header("x-close-response", "1")
                    .build();

            assertThat(text(await(client.send(upstream.endpoint(), askedToClose))))
                    .isEqualTo("ok");
            assertThat(text(await(client.send(upstream.endpoint(), toldToClose))))
                    .isEqualTo("ok");
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");

            assertThat(upstream.accepted()).isEqualTo(3);
        }
    }

    @Test
    void reusesTheConnectionAfterResponsesThatHaveNoBody() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 204 No Content\n\n");
            connection.readRequest();
            connection.send("HTTP/1.1 304 Not Modified\nETag: \"a\"\n\n");
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nContent-Type: text/plain\n\n");
            connection.readRequest();
            connection.send(OK);
            connection.awaitClose();
        })) {
            HttpClient client = client(pool -> {});

            assertThat(await(client.send(upstream.endpoint(), get())).status().code())
                    .isEqualTo(204);
            assertThat(await(client.send(upstream.endpoint(), get())).status().code())
                    .isEqualTo(304);
            assertThat(text(await(client.send(upstream.endpoint(), HttpRequest.of(HttpMethod.HEAD, "/")))))
                    .isEmpty();
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");

            assertThat(upstream.accepted()).isEqualTo(1);
        }
    }

    @Test
    void closesAfterAnHttp10ResponseWithoutKeepAlive() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.0 200 OK\nContent-Length: 2\n\nok");
            connection.awaitClose();
        })) {
            HttpClient client = client(pool -> {});

            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");

            assertThat(upstream.accepted()).isEqualTo(2);
        }
    }

    @Test
    void readsABodyDelimitedByTheCloseAndDoesNotReuseItsConnection() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\n\nuntil the end");
        })) {
            HttpClient client = client(pool -> {});

            HttpResponse response = await(client.send(upstream.endpoint(), get()));

            assertThat(response.body().contentLength()).isEqualTo(-1);
            assertThat(text(response)).isEqualTo("until the end");
            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        }
    }
}
