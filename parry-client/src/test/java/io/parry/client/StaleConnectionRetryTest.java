package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.failure;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpBody;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one automatic retry: a reused connection that dies before any byte of the answer sends an
 * idempotent request with a fixed body again, once; nothing else is ever sent twice.
 */
class StaleConnectionRetryTest {
    private static final String OK = "HTTP/1.1 200 OK\nContent-Length: 2\n\nok";

    private HttpClient client;

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    private HttpClient client(int maxConnections) {
        client = HttpClient.builder()
                .options(ClientOptions.builder()
                        .eventLoopThreads(1)
                        .pool(PoolOptions.builder()
                                .maxConnections(maxConnections)
                                .build())
                        .build())
                .build();
        return client;
    }

    /** Answers the first request of each connection, then reads one more and closes without answering. */
    private static RawUpstream answeringOnce(List<String> unanswered) {
        return RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send(OK);
            UpstreamConnection.RawRequest second = connection.readRequest();
            if (second != null) {
                unanswered.add(second.requestLine());
            }
        });
    }

    @Test
    void neverSendsAPostAgainWhenItsReusedConnectionClosesAfterReadingIt() {
        List<String> unanswered = new CopyOnWriteArrayList<>();
        try (RawUpstream upstream = answeringOnce(unanswered)) {
            HttpClient client = client(1);
            assertThat(text(await(client.send(upstream.endpoint(), HttpRequest.of(HttpMethod.GET, "/")))))
                    .isEqualTo("ok");
            HttpRequest post = HttpRequest.builder(HttpMethod.POST, "/orders")
                    .body(HttpBody.ofUtf8("once"))
                    .build();

            Throwable failure = failure(client.send(upstream.endpoint(), post));

            assertThat(failure).isInstanceOf(ConnectionClosedException.class);
            assertThat(((ClientException) failure).requestSent()).isTrue();
            assertThat(unanswered).containsExactly("POST /orders HTTP/1.1");
            assertThat(upstream.accepted()).isEqualTo(1);
        }
    }

    @Test
    void neverSendsAStreamedBodyAgainEvenForAnIdempotentMethod() {
        List<String> unanswered = new CopyOnWriteArrayList<>();
        try (RawUpstream upstream = answeringOnce(unanswered)) {
            HttpClient client = client(1);
            assertThat(text(await(client.send(upstream.endpoint(), HttpRequest.of(HttpMethod.GET, "/")))))
                    .isEqualTo("ok");
            HttpRequest put = HttpRequest.builder(HttpMethod.PUT, "/file")
                    .body(HttpBody.of(GeneratedBody.of("streamed")))
                    .build();

            assertThat(failure(client.send(upstream.endpoint(), put))).isInstanceOf(ConnectionClosedException.class);
            assertThat(unanswered).containsExactly("PUT /file HTTP/1.1");
            assertThat(upstream.accepted()).isEqualTo(1);
        }
    }

    @Test
    void sendsAGetAgainOnlyOnce() throws Exception {
        List<String> unanswered = new CopyOnWriteArrayList<>();
        CountDownLatch bothOpen = new CountDownLatch(2);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            bothOpen.countDown();
            bothOpen.await(10, TimeUnit.SECONDS);
            connection.send(OK);
            UpstreamConnection.RawRequest second = connection.readRequest();
            if (second != null) {
                unanswered.add(second.requestLine());
            }
        })) {
            HttpClient client = client(2);
            CompletionStage<HttpResponse> first = client.send(upstream.endpoint(), HttpRequest.of(HttpMethod.GET, "/"));
            CompletionStage<HttpResponse> second =
                    client.send(upstream.endpoint(), HttpRequest.of(HttpMethod.GET, "/"));
            assertThat(text(await(first))).isEqualTo("ok");
            assertThat(text(await(second))).isEqualTo("ok");
            assertThat(client.poolStats(upstream.endpoint()).idle()).isEqualTo(2);

            // Both idle connections are stale: the call dies on one, is sent again on the other, dies again.
            Throwable failure = failure(client.send(upstream.endpoint(), HttpRequest.of(HttpMethod.GET, "/again")));

            assertThat(failure).isInstanceOf(ConnectionClosedException.class);
            assertThat(unanswered).containsExactly("GET /again HTTP/1.1", "GET /again HTTP/1.1");
            assertThat(upstream.accepted()).isEqualTo(2);
        }
    }

    @Test
    void reportsTheFirstFailureWithTheRequestSentWhenTheRetryCannotConnect() {
        AtomicReference<RawUpstream> self = new AtomicReference<>();
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send(OK);
            connection.readRequest();
            self.get().stopAccepting(); // Before this connection closes, so the retry is refused.
        })) {
            self.set(upstream);
            HttpClient client = client(1);
            assertThat(text(await(client.send(upstream.endpoint(), HttpRequest.of(HttpMethod.GET, "/")))))
                    .isEqualTo("ok");

            Throwable failure = failure(client.send(upstream.endpoint(), HttpRequest.of(HttpMethod.GET, "/")));

            assertThat(failure).isInstanceOf(ConnectionClosedException.class);
            assertThat(((ClientException) failure).requestSent())
                    .as("the first attempt reached the upstream")
                    .isTrue();
            assertThat(failure.getSuppressed()).singleElement().isInstanceOf(UpstreamConnectException.class);
            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        }
    }
}
