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
import io.parry.testing.NettyLeakExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NettyLeakExtension.class)
class Http2ClientTest {
    private final HttpClient client = HttpClient.builder()
            .options(ClientOptions.builder()
                    .eventLoopThreads(1)
                    .protocol(ClientProtocol.H2C)
                    .build())
            .build();
    private TestUpstream upstream;

    @AfterEach
    void close() {
        client.close();
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void sendsRequestsWithPriorKnowledgeAndReadsBodyAndTrailers() throws Exception {
        upstream = TestUpstream.cleartext(100);
        HttpResponse response = await(client.send(
                endpoint(),
                HttpRequest.of(HttpMethod.POST, "/echo?x=1")
                        .withHeaders(io.parry.http.HttpHeaders.of(
                                "Connection", "keep-alive", "TE", "trailers", "X-Name", "v"))
                        .withBody(HttpBody.ofUtf8("+body"))));

        assertThat(response.status().code()).isEqualTo(200);
        assertThat(text(response)).isEqualTo("connection 1+body");
        assertThat(await(response.body().trailers()).get("grpc-status")).isEqualTo("0");
        var request = upstream.requests.get(0);
        assertThat(request.path().toString()).isEqualTo("/echo?x=1");
        assertThat(request.authority().toString()).isEqualTo("127.0.0.1:" + upstream.port());
        assertThat(request.get("te").toString()).isEqualTo("trailers");
        assertThat(request.get("x-name").toString()).isEqualTo("v");
        assertThat(request.contains("connection")).isFalse();
    }

    @Test
    void multiplexesCallsUpToThePeersStreamLimitThenOpensAnotherConnection() throws Exception {
        upstream = TestUpstream.cleartext(2);
        upstream.holding = new CountDownLatch(3);
        List<CompletionStage<HttpResponse>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/hold")));
        }
        assertThat(upstream.holding.await(10, java.util.concurrent.TimeUnit.SECONDS))
                .isTrue();
        upstream.release();
        for (CompletionStage<HttpResponse> call : calls) {
            text(await(call));
        }

        assertThat(upstream.connections()).isEqualTo(2);
        assertThat(upstream.streamConnections).containsExactlyInAnyOrder(1, 1, 2);
        HttpResponse again = await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")));
        assertThat(text(again)).startsWith("connection ");
        assertThat(upstream.connections()).isEqualTo(2);
    }

    @Test
    void sendsStreamsAboveGoAwaysLastStreamIdAgainOnAnotherConnection() throws Exception {
        upstream = TestUpstream.cleartext(100);

        HttpResponse response = await(client.send(
                endpoint(), HttpRequest.of(HttpMethod.POST, "/goaway").withBody(HttpBody.ofUtf8("!"))));

        assertThat(text(response)).isEqualTo("connection 2!");
        assertThat(upstream.connections()).isEqualTo(2);
    }

    @Test
    void failsTheCallOfAResetStreamAndKeepsTheConnection() throws Exception {
        upstream = TestUpstream.cleartext(100);

        Throwable failure = failure(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/reset")));

        assertThat(failure).isInstanceOf(ConnectionClosedException.class).hasMessageContaining("INTERNAL_ERROR");
        assertThat(text(await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")))))
                .isEqualTo("connection 1");
        assertThat(upstream.connections()).isEqualTo(1);
    }

    @Test
    void aPausedReaderHoldsItsOwnStreamNotTheConnection() throws Exception {
        upstream = TestUpstream.cleartext(100);
        HttpResponse big = await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/big")));
        CountingReader reader = new CountingReader();
        big.body().subscribe(reader);
        await(reader.first);

        assertThat(text(await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")))))
                .isEqualTo("connection 1");
        assertThat(reader.bytes.get()).isLessThan(TestUpstream.BIG);

        reader.readAll();
        assertThat(await(reader.done)).isEqualTo(TestUpstream.BIG);
    }

    @Test
    void resetsTheStreamOfACancelledCallAndKeepsTheConnection() throws Exception {
        upstream = TestUpstream.cleartext(100);
        upstream.holding = new CountDownLatch(1);
        CompletableFuture<HttpResponse> call =
                client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/hold")).toCompletableFuture();
        assertThat(upstream.holding.await(10, TimeUnit.SECONDS)).isTrue();

        call.cancel(false);

        Calls.eventually(() -> upstream.resets.get() == 1);
        assertThat(text(await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")))))
                .isEqualTo("connection 1");
    }

    @Test
    void failsAndResetsAStreamWhoseResponseHeadersAreLate() throws Exception {
        upstream = TestUpstream.cleartext(100);

        Throwable failure = failure(client.send(
                endpoint(),
                HttpRequest.of(HttpMethod.GET, "/hold"),
                ClientTimeouts.builder().responseHeaders(Duration.ofMillis(100)).build()));

        assertThat(failure).isInstanceOf(ResponseTimeoutException.class);
        Calls.eventually(() -> upstream.resets.get() == 1);
    }

    @Test
    void blamesTheCallerForARequestBodyThatFails() throws Exception {
        upstream = TestUpstream.cleartext(100);
        Flow.Publisher<HttpData> failing = subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            private boolean sent;

            @Override
            public void request(long n) {
                if (!sent) {
                    sent = true;
                    subscriber.onNext(HttpData.ofUtf8("part"));
                    subscriber.onError(new IllegalStateException("the client went away"));
                }
            }

            @Override
            public void cancel() {}
        });

        Throwable failure = failure(
                client.send(endpoint(), HttpRequest.of(HttpMethod.POST, "/echo").withBody(HttpBody.of(failing))));

        assertThat(failure).isInstanceOf(RequestBodyException.class);
        assertThat(((ClientException) failure).callerCaused()).isTrue();
    }

    @Test
    void sendsEachStreamedBodyOfSequentialCallsWithoutWaitingForOtherTraffic() throws Exception {
        upstream = TestUpstream.cleartext(100);
        for (int i = 0; i < 20; i++) {
            HttpRequest request =
                    HttpRequest.of(HttpMethod.POST, "/echo").withBody(HttpBody.of(chunks("+a", "+b", "+" + i)));

            assertThat(text(await(client.send(endpoint(), request)))).isEqualTo("connection 1+a+b+" + i);
        }
    }

    @Test
    void endsTheStreamWithTheHeadOfAStreamedEmptyBody() throws Exception {
        upstream = TestUpstream.cleartext(100);
        for (int i = 0; i < 20; i++) {
            HttpRequest request = HttpRequest.of(HttpMethod.GET, "/").withBody(HttpBody.of(chunks(), 0));

            assertThat(text(await(client.send(endpoint(), request)))).isEqualTo("connection 1");
        }
        assertThat(upstream.headEndedStreams.get()).isEqualTo(20);
    }

    @Test
    void pingsAnIdleConnection() throws Exception {
        upstream = TestUpstream.cleartext(100);
        try (HttpClient pinging = HttpClient.builder()
                .options(ClientOptions.builder()
                        .eventLoopThreads(1)
                        .protocol(ClientProtocol.H2C)
                        .pool(PoolOptions.builder()
                                .pingInterval(Duration.ofMillis(50))
                                .build())
                        .build())
                .build()) {
            text(await(pinging.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/"))));

            Calls.eventually(() -> upstream.pings.get() >= 2);
            assertThat(text(await(pinging.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")))))
                    .isEqualTo("connection 1");
        }
    }

    private Endpoint endpoint() {
        return Endpoint.of("127.0.0.1", upstream.port());
    }

    /** A body that gives its chunks as they are requested, its length unknown up front (as a proxied body's). */
    private static Flow.Publisher<HttpData> chunks(String... texts) {
        return subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            private int next;
            private boolean done;

            @Override
            public void request(long n) {
                for (long i = 0; i < n && next < texts.length; i++) {
                    subscriber.onNext(HttpData.ofUtf8(texts[next++]));
                }
                if (next == texts.length && !done) {
                    done = true;
                    subscriber.onComplete();
                }
            }

            @Override
            public void cancel() {
                done = true;
            }
        });
    }

    /** Reads one chunk, then waits for {@link #readAll()}; counts the bytes. */
    private static final class CountingReader implements Flow.Subscriber<HttpData> {
        final CompletableFuture<Void> first = new CompletableFuture<>();
        final CompletableFuture<Long> done = new CompletableFuture<>();
        final AtomicLong bytes = new AtomicLong();
        private volatile Flow.Subscription subscription;

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(1);
        }

        @Override
        public void onNext(HttpData chunk) {
            bytes.addAndGet(chunk.length());
            first.complete(null);
        }

        @Override
        public void onError(Throwable failure) {
            first.completeExceptionally(failure);
            done.completeExceptionally(failure);
        }

        @Override
        public void onComplete() {
            done.complete(bytes.get());
        }

        void readAll() {
            subscription.request(Long.MAX_VALUE);
        }
    }
}
