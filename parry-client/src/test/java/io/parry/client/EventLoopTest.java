package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.failure;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.RequestLimits;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class EventLoopTest {
    private static final HttpClient client = HttpClient.builder()
            .options(ClientOptions.builder().eventLoopThreads(1).build())
            .build();

    /** Echoes the request body. */
    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of(
            (ctx, request) -> HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), request.body())
                    .toStage(),
            options ->
                    options.limits(RequestLimits.builder().maxBodySize(16 << 20).build()));

    /** Proxies every request to the upstream and says whether the response came back on the handler's thread. */
    @RegisterExtension
    static final ServerExtension proxy = ServerExtension.of(
            (ctx, request) -> {
                Thread handler = Thread.currentThread();
                return client.send(Endpoint.of("127.0.0.1", upstream.port()), request)
                        .thenApply(response -> response.withHeader(
                                "x-same-thread", String.valueOf(Thread.currentThread() == handler)));
            },
            options ->
                    options.limits(RequestLimits.builder().maxBodySize(16 << 20).build()));

    @AfterAll
    static void closeClient() {
        client.close();
    }

    @Test
    void completesACallMadeInAServerHandlerOnTheHandlersEventLoop() throws Exception {
        var response = proxy.client()
                .send(
                        java.net.http.HttpRequest.newBuilder(proxy.uri("/"))
                                .POST(BodyPublishers.ofString("hi"))
                                .build(),
                        BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("x-same-thread")).hasValue("true");
        assertThat(response.body()).isEqualTo("hi");
    }

    @Test
    void streamsALargeBodyThroughAProxyingHandlerBothWays() throws Exception {
        byte[] body = new byte[8 << 20];
        new Random(7).nextBytes(body);

        var response = proxy.client()
                .send(
                        java.net.http.HttpRequest.newBuilder(proxy.uri("/big"))
                                .POST(BodyPublishers.ofByteArray(body))
                                .build(),
                        BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Arrays.equals(response.body(), body)).isTrue();
    }

    @Test
    void completesACallMadeOffAnEventLoopOnTheClientsOwnLoop() {
        String[] thread = new String[1];

        await(client.send(Endpoint.of("127.0.0.1", upstream.port()), HttpRequest.of(HttpMethod.GET, "/"))
                .thenApply(response -> {
                    thread[0] = Thread.currentThread().getName();
                    return text(response);
                }));

        assertThat(thread[0]).startsWith("parry-client-");
    }

    @Test
    void failsCallsAfterCloseAndClosesTwiceQuietly() {
        HttpClient closing = HttpClient.ofDefault();
        Endpoint endpoint = Endpoint.of("127.0.0.1", upstream.port());
        assertThat(await(closing.send(endpoint, HttpRequest.of(HttpMethod.GET, "/")))
                        .status())
                .isEqualTo(HttpStatus.OK);

        closing.close();

        assertThat(failure(closing.send(endpoint, HttpRequest.of(HttpMethod.GET, "/"))))
                .isInstanceOf(IllegalStateException.class);
        assertThat(closing.poolStats(endpoint)).matches(PoolStats::isEmpty);
        assertThatCode(closing::close).doesNotThrowAnyException();
    }

    @Test
    void dropsRequestBodySignalsThatArriveAfterTheClientClosedInsteadOfThrowingThem() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        try (RawUpstream raw = RawUpstream.start(connection -> {
            connection.readHead();
            received.countDown();
            connection.awaitClose();
        })) {
            HttpClient closing = HttpClient.builder()
                    .options(ClientOptions.builder().eventLoopThreads(1).build())
                    .build();
            LatePublisher body = new LatePublisher();
            CompletionStage<HttpResponse> call = closing.send(
                    raw.endpoint(),
                    HttpRequest.builder(HttpMethod.POST, "/")
                            .body(HttpBody.of(body))
                            .build());
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();

            closing.close();

            assertThat(failure(call)).isInstanceOf(ConnectionClosedException.class);
            assertThatCode(() -> body.subscriber.onSubscribe(body)).doesNotThrowAnyException();
            assertThat(body.cancelled)
                    .as("a subscription that came too late is cancelled")
                    .isTrue();
            assertThatCode(() -> body.subscriber.onComplete()).doesNotThrowAnyException();
        }
    }

    @Test
    void failsACallInFlightWithConnectionClosedWhenTheClientCloses() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        try (RawUpstream raw = RawUpstream.start(connection -> {
            connection.readRequest();
            received.countDown();
            connection.awaitClose();
        })) {
            HttpClient closing = HttpClient.ofDefault();
            CompletionStage<HttpResponse> call = closing.send(raw.endpoint(), HttpRequest.of(HttpMethod.GET, "/"));
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();

            closing.close();

            assertThat(failure(call)).isInstanceOf(ConnectionClosedException.class);
        }
    }

    /** A body source that signals only when the test tells it to, from the test's thread. */
    private static final class LatePublisher implements Flow.Publisher<HttpData>, Flow.Subscription {
        volatile Flow.Subscriber<? super HttpData> subscriber;
        volatile boolean cancelled;

        @Override
        public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {}

        @Override
        public void cancel() {
            cancelled = true;
        }
    }
}
