package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.eventually;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A call its caller gives up on after the request went out keeps its connection when the rest of the
 * response is short and arrives in time, and closes it otherwise.
 */
class AbandonedDrainTest {
    private static final String OK = "HTTP/1.1 200 OK\nContent-Length: 2\n\nok";

    private HttpClient client = client(100, Duration.ofSeconds(10), Duration.ofSeconds(10));

    @AfterEach
    void closeClient() {
        client.close();
    }

    private static HttpClient client(int drainBytes, Duration drainTime, Duration timeouts) {
        return HttpClient.builder()
                .options(ClientOptions.builder()
                        .eventLoopThreads(1)
                        .pool(PoolOptions.builder()
                                .maxConnections(1)
                                .abandonedDrain(drainBytes)
                                .abandonedDrainTime(drainTime)
                                .build())
                        .timeouts(ClientTimeouts.builder()
                                .responseHeaders(timeouts)
                                .bodyIdle(timeouts)
                                .build())
                        .build())
                .build();
    }

    private static HttpRequest get() {
        return HttpRequest.of(HttpMethod.GET, "/");
    }

    @Test
    void reusesTheConnectionOnceTheAbandonedResponseArrives() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            received.countDown();
            answer.await(10, TimeUnit.SECONDS);
            connection.send("HTTP/1.1 200 OK\nContent-Length: 17\n\nnobody wa");
            connection.send("nts this");
            while (connection.readRequest() != null) {
                connection.send(OK);
            }
        })) {
            CompletionStage<HttpResponse> abandoned = client.send(upstream.endpoint(), get());
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();
            abandoned.toCompletableFuture().cancel(true);
            eventually(() -> client.poolStats(upstream.endpoint()).active() == 1); // Draining, still in use.

            answer.countDown();

            eventually(() -> client.poolStats(upstream.endpoint()).idle() == 1);
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");
            assertThat(upstream.accepted()).isEqualTo(1);
        }
    }

    @Test
    void reusesTheConnectionAfterTheRestOfACancelledBodyArrives() throws Exception {
        CountDownLatch rest = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n5\nfirst\n");
            rest.await(10, TimeUnit.SECONDS);
            connection.send("6\nsecond\n0\n\n");
            while (connection.readRequest() != null) {
                connection.send(OK);
            }
        })) {
            HttpResponse response = await(client.send(upstream.endpoint(), get()));
            CompletableFuture<String> firstChunk = new CompletableFuture<>();
            response.body().subscribe(new CancelAfterFirstChunk(firstChunk));
            assertThat(await(firstChunk)).isEqualTo("first");

            rest.countDown();

            eventually(() -> client.poolStats(upstream.endpoint()).idle() == 1);
            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");
            assertThat(upstream.accepted()).isEqualTo(1);
        }
    }

    @Test
    void closesWhenTheAbandonedResponseIsLongerThanTheDrainLimit() throws Exception {
        assertClosedAfterAbandoning("HTTP/1.1 200 OK\nContent-Length: 101\n\n");
    }

    @Test
    void closesWhenAChunkedAbandonedResponseRunsPastTheDrainLimit() throws Exception {
        assertClosedAfterAbandoning("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n65\n" + "x".repeat(101) + "\n");
    }

    @Test
    void closesWhenTheAbandonedResponseEndsTheConnection() throws Exception {
        assertClosedAfterAbandoning("HTTP/1.1 200 OK\nConnection: close\nContent-Length: 2\n\nok");
    }

    @Test
    void closesWhenTheAbandonedResponseDoesNotEndWithinTheDrainTime() throws Exception {
        client.close();
        client = client(100, Duration.ofMillis(200), Duration.ofSeconds(10));
        assertClosedAfterAbandoning(null);
    }

    @Test
    void closesWhenTheAbandonedBodyStallsWithinTheDrainTime() throws Exception {
        client.close();
        client = client(100, Duration.ofMillis(200), Duration.ofSeconds(10));
        assertClosedAfterAbandoning("HTTP/1.1 200 OK\nContent-Length: 50\n\nthe start");
    }

    @Test
    void closesWhenACallTimeoutExpiresFirst() throws Exception {
        client.close();
        client = client(100, Duration.ofSeconds(10), Duration.ofMillis(200));
        assertClosedAfterAbandoning(null);
    }

    @Test
    void closesAtOnceWhenDrainingIsOff() throws Exception {
        client.close();
        client = client(0, Duration.ofSeconds(10), Duration.ofSeconds(10));
        assertClosedAfterAbandoning(null);
    }

    @Test
    void closesAtOnceWhenTheDrainTimeIsZero() throws Exception {
        client.close();
        client = client(100, Duration.ZERO, Duration.ofSeconds(10));
        assertClosedAfterAbandoning(null);
    }

    /** Abandons a call once its request arrived, then lets the upstream send {@code response}, if any. */
    private void assertClosedAfterAbandoning(String response) throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            received.countDown();
            answer.await(10, TimeUnit.SECONDS);
            if (response != null) {
                connection.send(response);
            }
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            CompletionStage<HttpResponse> abandoned = client.send(upstream.endpoint(), get());
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();
            abandoned.toCompletableFuture().cancel(true);

            answer.countDown();

            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
            eventually(() -> client.poolStats(upstream.endpoint()).isEmpty());
        }
    }
}
