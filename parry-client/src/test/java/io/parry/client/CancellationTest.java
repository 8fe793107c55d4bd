package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.eventually;
import static io.parry.client.Calls.failure;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.ContentTooLargeException;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CancellationTest {
    private static final String OK = "HTTP/1.1 200 OK\nContent-Length: 2\n\nok";

    private final HttpClient client = HttpClient.builder()
            .options(ClientOptions.builder()
                    .eventLoopThreads(1)
                    // Closing shows that an abandoned call reached its connection; AbandonedDrainTest drains.
                    .pool(PoolOptions.builder()
                            .maxConnections(1)
                            .abandonedDrain(0)
                            .build())
                    .build())
            .build();

    @AfterEach
    void closeClient() {
        client.close();
    }

    private static HttpRequest get() {
        return HttpRequest.of(HttpMethod.GET, "/");
    }

    @Test
    void dropsACancelledQueuedCallAndLeavesTheBusyConnectionAlone() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            while (connection.readRequest() != null) {
                received.countDown();
                answer.await(10, TimeUnit.SECONDS);
                connection.send(OK);
            }
        })) {
            CompletionStage<HttpResponse> busy = client.send(upstream.endpoint(), get());
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();
            CompletionStage<HttpResponse> queued = client.send(upstream.endpoint(), get());
            eventually(() -> client.poolStats(upstream.endpoint()).pending() == 1);

            assertThat(queued.toCompletableFuture().cancel(true)).isTrue();

            eventually(() -> client.poolStats(upstream.endpoint()).pending() == 0);
            answer.countDown();
            assertThat(text(await(busy))).isEqualTo("ok");
            assertThat(client.poolStats(upstream.endpoint())).isEqualTo(new PoolStats(0, 1, 0));
            assertThat(upstream.accepted()).isEqualTo(1);
        }
    }

    @Test
    void closesTheConnectionOfACallCancelledBeforeItsResponse() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            received.countDown();
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            CompletionStage<HttpResponse> call = client.send(upstream.endpoint(), get());
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();

            call.toCompletableFuture().cancel(true);

            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        }
    }

    @Test
    void closesTheConnectionWhenTheBodySubscriptionIsCancelledBeforeTheEnd() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nContent-Length: 1000\n\nthe start");
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            HttpResponse response = await(client.send(upstream.endpoint(), get()));
            CompletableFuture<String> firstChunk = new CompletableFuture<>();

            response.body().subscribe(new CancelAfterFirstChunk(firstChunk));

            assertThat(await(firstChunk)).isEqualTo("the start");
            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        }
    }

    @Test
    void keepsTheConnectionWhenTheBodyIsCancelledAfterItArrivedWhole() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            while (connection.readRequest() != null) {
                connection.send(OK);
            }
        })) {
            HttpResponse response = await(client.send(upstream.endpoint(), get()));
            eventually(() -> client.poolStats(upstream.endpoint()).idle() == 1); // The body's end arrived.

            response.body().subscribe(new CancelAfterFirstChunk(new CompletableFuture<>()));

            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");
            assertThat(upstream.accepted()).isEqualTo(1);
        }
    }

    @Test
    void leavesNothingActiveOrPendingWhenCancelledWhileConnecting() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            while (connection.readRequest() != null) {
                connection.send(OK);
            }
        })) {
            CompletableFuture<HttpResponse> call =
                    client.send(upstream.endpoint(), get()).toCompletableFuture();
            if (!call.cancel(true)) {
                // Under load the whole response can arrive before the cancel: its body is then the caller's
                // to read, and left unread its last message leaked.
                assertThat(text(await(call))).isEqualTo("ok");
            }

            eventually(() -> {
                PoolStats stats = client.poolStats(upstream.endpoint());
                return stats.active() == 0 && stats.pending() == 0;
            });
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");
        }
    }

    @Test
    void keepsTheConnectionForOthersWhenACallIsCancelledWhileItIsBeingOpened() {
        try (RawUpstream first = RawUpstream.start(connection -> {
                    while (connection.readRequest() != null) {
                        connection.send(OK);
                    }
                });
                RawUpstream second = RawUpstream.start(connection -> {
                    while (connection.readRequest() != null) {
                        connection.send(OK);
                    }
                })) {
            HttpResponse response = await(client.send(first.endpoint(), get()));
            CompletableFuture<PoolStats> afterCancel = new CompletableFuture<>();

            // On the client's event loop the call is placed at once, so it is cancelled mid-connect.
            onClientLoop(response, () -> {
                client.send(second.endpoint(), get()).toCompletableFuture().cancel(true);
                afterCancel.complete(client.poolStats(second.endpoint()));
            });

            assertThat(await(afterCancel)).matches(PoolStats::isEmpty);
            eventually(() -> client.poolStats(second.endpoint()).idle() == 1);
            assertThat(text(await(client.send(second.endpoint(), get())))).isEqualTo("ok");
            assertThat(second.accepted()).isEqualTo(1);
        }
    }

    @Test
    void stopsTheRequestBodyAndClosesWhenCancelledWhileTheBodyIsSent() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readHead();
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            GeneratedBody upload = GeneratedBody.ofSize(256L << 20);
            CompletionStage<HttpResponse> call = client.send(
                    upstream.endpoint(),
                    HttpRequest.builder(HttpMethod.POST, "/")
                            .body(HttpBody.of(upload, upload.total()))
                            .build());
            eventually(() -> upload.produced.get() >= 1 << 20);

            call.toCompletableFuture().cancel(true);

            assertThat(upload.cancelled.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
            eventually(() -> client.poolStats(upstream.endpoint()).isEmpty());
            assertThat(upload.produced.get()).isLessThan(upload.total());
        }
    }

    @Test
    void closesTheConnectionWhenTheBodyIsLongerThanTheAggregationLimit() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n10\n0123456789abcdef\n");
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            HttpResponse response = await(client.send(upstream.endpoint(), get()));

            assertThat(failure(response.body().aggregate(8))).isInstanceOf(ContentTooLargeException.class);
            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
            eventually(() -> client.poolStats(upstream.endpoint()).isEmpty());
        }
    }

    @Test
    void failsTheBodyBeingReadWhenTheClientCloses() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nContent-Length: 1000\n\nthe start");
            connection.awaitClose();
        })) {
            HttpResponse response = await(client.send(upstream.endpoint(), get()));
            CompletionStage<HttpData> whole = response.body().aggregate(1000);

            client.close();

            assertThat(failure(whole)).isInstanceOf(ConnectionClosedException.class);
        }
    }

    @Test
    void failsABodyReadAfterTheClientClosedInsteadOfThrowing() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nContent-Length: 1000\n\nthe start");
            connection.awaitClose();
        })) {
            HttpResponse response = await(client.send(upstream.endpoint(), get()));

            client.close();

            assertThat(failure(response.body().aggregate(1000))).isInstanceOf(ConnectionClosedException.class);
            assertThat(failure(response.body().trailers())).isInstanceOf(ConnectionClosedException.class);
        }
    }

    /** Runs the task on the client's event loop, where the response body signals its subscriber. */
    private static void onClientLoop(HttpResponse response, Runnable task) {
        response.body().subscribe(new Flow.Subscriber<HttpData>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                task.run();
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(HttpData item) {}

            @Override
            public void onError(Throwable failure) {}

            @Override
            public void onComplete() {}
        });
    }
}
