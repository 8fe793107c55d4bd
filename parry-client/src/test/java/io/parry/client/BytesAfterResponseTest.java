package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.eventually;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An upstream that sends more than the response it framed (a HEAD answered with a body, a length
 * shorter than the content) has lost track of the exchange: its connection is never reused, so the
 * surplus can never be read as the answer to another call.
 */
class BytesAfterResponseTest {
    private static final String OK = "HTTP/1.1 200 OK\nContent-Length: 2\n\nok";

    private final HttpClient client = HttpClient.builder()
            .options(ClientOptions.builder()
                    .eventLoopThreads(1)
                    .pool(PoolOptions.builder().maxConnections(1).build())
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
    void neverHandsTheWaitingCallAResponseThatFollowedAnotherInTheSameRead() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            while (connection.readRequest() != null) {
                received.countDown();
                answer.await(10, TimeUnit.SECONDS);
                connection.send(OK + "HTTP/1.1 200 OK\nContent-Length: 7\n\nsurplus");
            }
        })) {
            CompletionStage<HttpResponse> first = client.send(upstream.endpoint(), get());
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();
            CompletionStage<HttpResponse> waiting = client.send(upstream.endpoint(), get());
            eventually(() -> client.poolStats(upstream.endpoint()).pending() == 1);

            answer.countDown();

            assertThat(text(await(first))).isEqualTo("ok");
            assertThat(text(await(waiting))).isEqualTo("ok");
            assertThat(upstream.accepted()).isEqualTo(2);
        }
    }

    @Test
    void doesNotReuseAConnectionWhoseHeadResponseCarriedABody() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            UpstreamConnection.RawRequest request;
            while ((request = connection.readRequest()) != null) {
                connection.send(
                        request.requestLine().startsWith("HEAD") ? "HTTP/1.1 200 OK\nContent-Length: 5\n\nhello" : OK);
            }
        })) {
            HttpResponse head = await(client.send(upstream.endpoint(), HttpRequest.of(HttpMethod.HEAD, "/")));
            assertThat(head.headers().get("content-length")).isEqualTo("5");
            assertThat(text(head)).isEmpty();

            assertThat(text(await(client.send(upstream.endpoint(), get())))).isEqualTo("ok");

            assertThat(upstream.accepted()).isEqualTo(2);
        }
    }
}
