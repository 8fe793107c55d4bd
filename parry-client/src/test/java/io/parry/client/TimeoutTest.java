package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.failure;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TimeoutTest {
    private static final Duration SHORT = Duration.ofMillis(200);

    private HttpClient client;

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    private HttpClient client(ClientTimeouts timeouts) {
        client = HttpClient.builder()
                .options(ClientOptions.builder()
                        .eventLoopThreads(1)
                        .timeouts(timeouts)
                        .pool(PoolOptions.builder().maxConnections(1).build())
                        .build())
                .build();
        return client;
    }

    private static HttpRequest get() {
        return HttpRequest.of(HttpMethod.GET, "/");
    }

    @Test
    void failsWithConnectTimeoutWhenTheUpstreamDoesNotAccept() throws Exception {
        withUnacceptingEndpoint(endpoint -> {
            HttpClient client = client(ClientTimeouts.builder().connect(SHORT).build());

            long start = System.nanoTime();
            Throwable failure = failure(client.send(endpoint, get()));

            assertThat(failure).isInstanceOf(ConnectTimeoutException.class);
            assertThat(((ClientException) failure).requestSent()).isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(SHORT.minusMillis(10));
            assertThat(client.poolStats(endpoint)).matches(PoolStats::isEmpty);
        });
    }

    @Test
    void failsEveryQueuedCallWithTheConnectFailureWhenNoConnectionIsOpen() throws Exception {
        withUnacceptingEndpoint(endpoint -> {
            HttpClient client = client(ClientTimeouts.builder().connect(SHORT).build());

            CompletionStage<HttpResponse> connecting = client.send(endpoint, get());
            CompletionStage<HttpResponse> queued = client.send(endpoint, get());
            CompletionStage<HttpResponse> last = client.send(endpoint, get());

            // One connect timeout for all three, not one each in turn.
            Throwable failure = failure(connecting);
            assertThat(failure).isInstanceOf(ConnectTimeoutException.class);
            assertThat(failure(queued)).isSameAs(failure);
            assertThat(failure(last)).isSameAs(failure);
            assertThat(client.poolStats(endpoint)).matches(PoolStats::isEmpty);
        });
    }

    /** Runs the test against a listener whose accept queue is full, so connects to it time out. */
    private static void withUnacceptingEndpoint(EndpointTest test) throws Exception {
        try (ServerSocket listener = new ServerSocket()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            List<Socket> backlog = fillAcceptQueue(listener);
            try {
                test.run(Endpoint.of("127.0.0.1", listener.getLocalPort()));
            } finally {
                for (Socket socket : backlog) {
                    socket.close();
                }
            }
        }
    }

    private interface EndpointTest {
        void run(Endpoint endpoint) throws Exception;
    }

    /** Connects until the kernel stops completing handshakes for a listener that never accepts. */
    private static List<Socket> fillAcceptQueue(ServerSocket listener) throws IOException {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            Socket socket = new Socket();
            try {
                socket.connect(listener.getLocalSocketAddress(), 100);
                sockets.add(socket);
            } catch (SocketTimeoutException e) {
                socket.close();
                return sockets;
            }
        }
        throw new AssertionError("the accept queue never filled");
    }

    @Test
    void failsWithResponseTimeoutWhenNoHeadArrives() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            HttpClient client =
                    client(ClientTimeouts.builder().responseHeaders(SHORT).build());

            long start = System.nanoTime();
            Throwable failure = failure(client.send(upstream.endpoint(), get()));

            assertThat(failure).isInstanceOf(ResponseTimeoutException.class);
            assertThat(((ClientException) failure).requestSent()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(SHORT, Duration.ofSeconds(2));
            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        }
    }

    @Test
    void appliesTimeoutsPassedWithTheCallInsteadOfTheDefaults() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.awaitClose();
        })) {
            HttpClient client = client(ClientTimeouts.ofDefault());

            Throwable failure = failure(client.send(
                    upstream.endpoint(),
                    get(),
                    ClientTimeouts.builder().responseHeaders(SHORT).build()));

            assertThat(failure).isInstanceOf(ResponseTimeoutException.class);
            assertThat(failure).hasMessageContaining("200 ms");
        }
    }

    @Test
    void startsTheResponseTimeoutOnlyWhenTheWholeRequestWasWritten() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            UpstreamConnection.RawRequest request = connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nContent-Length: " + request.body().length + "\n\n" + request.bodyText());
            connection.awaitClose();
        })) {
            HttpClient client =
                    client(ClientTimeouts.builder().responseHeaders(SHORT).build());
            HttpRequest slowUpload = HttpRequest.builder(HttpMethod.POST, "/")
                    .body(HttpBody.of(new SlowPublisher("first ", "second", Duration.ofMillis(500))))
                    .build();

            HttpResponse response = await(client.send(upstream.endpoint(), slowUpload));

            assertThat(text(response)).isEqualTo("first second");
        }
    }

    @Test
    void failsTheBodyWithBodyTimeoutWhenTheUpstreamStallsMidBody() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nContent-Length: 10\n\nhalf.");
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            HttpClient client = client(ClientTimeouts.builder().bodyIdle(SHORT).build());
            HttpResponse response = await(client.send(upstream.endpoint(), get()));

            Throwable failure = failure(response.body().aggregate(100));

            assertThat(failure).isInstanceOf(BodyTimeoutException.class);
            assertThat(((ClientException) failure).requestSent()).isTrue();
            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        }
    }

    @Test
    void failsWithCallTimeoutWhenTheWholeCallTakesTooLong() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nContent-Length: 100\n\n");
            for (int i = 0; i < 100; i++) {
                Thread.sleep(20); // Each byte is in time for the body-idle timeout; all of them are not.
                connection.send("x");
            }
        })) {
            HttpClient client = client(ClientTimeouts.builder()
                    .bodyIdle(SHORT)
                    .call(Duration.ofMillis(500))
                    .build());
            HttpResponse response = await(client.send(upstream.endpoint(), get()));

            Throwable failure = failure(response.body().aggregate(1000));

            assertThat(failure).isInstanceOf(CallTimeoutException.class);
            assertThat(((ClientException) failure).callerCaused()).isFalse();
            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        }
    }

    @Test
    void saysTheCallerCausedACallTimeoutThatExpiredWhileItDidNotRead() throws Exception {
        byte[] chunk = new byte[64 * 1024];
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nContent-Length: " + 256 * chunk.length + "\n\n");
            for (int i = 0; i < 256; i++) {
                connection.sendBytes(chunk); // Blocks once the client stops reading.
            }
        })) {
            HttpClient client =
                    client(ClientTimeouts.builder().call(Duration.ofSeconds(1)).build());
            HttpResponse response = await(client.send(upstream.endpoint(), get()));
            CompletableFuture<Throwable> failed = new CompletableFuture<>();

            response.body().subscribe(new Flow.Subscriber<HttpData>() {
                @Override
                public void onSubscribe(Flow.Subscription subscription) {
                    // Never asks for anything: the client pauses reading from the upstream.
                }

                @Override
                public void onNext(HttpData item) {}

                @Override
                public void onError(Throwable failure) {
                    failed.complete(failure);
                }

                @Override
                public void onComplete() {
                    failed.complete(null);
                }
            });

            Throwable failure = failed.get(10, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(CallTimeoutException.class).hasMessageContaining("not reading");
            assertThat(((ClientException) failure).callerCaused()).isTrue();
        }
    }

    @Test
    void failsAQueuedCallWithCallTimeoutAndNothingSent() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            while (connection.readRequest() != null) {
                received.countDown();
                answer.await(10, TimeUnit.SECONDS);
                connection.send("HTTP/1.1 200 OK\nContent-Length: 2\n\nok");
            }
        })) {
            HttpClient client = client(ClientTimeouts.ofDefault());
            CompletionStage<HttpResponse> busy = client.send(upstream.endpoint(), get());
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();

            Throwable failure = failure(client.send(
                    upstream.endpoint(),
                    get(),
                    ClientTimeouts.builder().call(SHORT).build()));

            assertThat(failure).isInstanceOf(CallTimeoutException.class);
            assertThat(((ClientException) failure).requestSent()).isFalse();
            assertThat(client.poolStats(upstream.endpoint())).isEqualTo(new PoolStats(1, 0, 0));
            answer.countDown();
            assertThat(text(await(busy))).isEqualTo("ok");
        }
    }

    /** Publishes one chunk, then the other after a pause. */
    private static final class SlowPublisher implements Flow.Publisher<HttpData> {
        private final String first;
        private final String second;
        private final Duration pause;

        SlowPublisher(String first, String second, Duration pause) {
            this.first = first;
            this.second = second;
            this.pause = pause;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
            subscriber.onSubscribe(new Flow.Subscription() {
                private int sent;

                @Override
                public void request(long n) {
                    if (sent == 0) {
                        sent = 1;
                        subscriber.onNext(HttpData.ofUtf8(first));
                    } else if (sent == 1) {
                        sent = 2;
                        CompletableFuture.delayedExecutor(pause.toMillis(), TimeUnit.MILLISECONDS)
                                .execute(() -> {
                                    subscriber.onNext(HttpData.ofUtf8(second));
                                    subscriber.onComplete();
                                });
                    }
                }

                @Override
                public void cancel() {
                    sent = 2;
                }
            });
        }
    }
}
