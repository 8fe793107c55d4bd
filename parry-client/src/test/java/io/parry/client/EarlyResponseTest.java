package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpBody;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Responses that arrive while the request body is still being sent. */
class EarlyResponseTest {
    private final HttpClient client = HttpClient.builder()
            .options(ClientOptions.builder().eventLoopThreads(1).build())
            .build();

    @AfterEach
    void closeClient() {
        client.close();
    }

    private static HttpRequest upload(GeneratedBody body) {
        return HttpRequest.builder(HttpMethod.POST, "/upload")
                .body(HttpBody.of(body, body.total()))
                .build();
    }

    @Test
    void stopsSendingTheRequestBodyWhenAnErrorAnswersItAndClosesAfterTheResponse() throws Exception {
        CountDownLatch rest = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readHead();
            connection.send("HTTP/1.1 413 Content Too Large\nContent-Length: 10\n\nfirst");
            rest.await(30, TimeUnit.SECONDS); // Longer than the test waits for the source to stop.
            connection.send("half.");
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            GeneratedBody body = GeneratedBody.ofSize(64L << 20);

            HttpResponse response = await(client.send(upstream.endpoint(), upload(body)));

            assertThat(response.status().code()).isEqualTo(413);
            assertThat(body.cancelled.await(10, TimeUnit.SECONDS))
                    .as("the body's source stopped while the response was still arriving")
                    .isTrue();
            rest.countDown();
            assertThat(text(response)).isEqualTo("firsthalf.");
            assertThat(closed.await(10, TimeUnit.SECONDS))
                    .as("a connection left in the middle of a request is not reused")
                    .isTrue();
            assertThat(body.produced.get()).isLessThan(body.total());
            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        }
    }

    @Test
    void keepsSendingTheRequestBodyAfterAnEarlySuccessAndReusesTheConnectionWhenBothEnd() {
        AtomicLong received = new AtomicLong();
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            String head;
            while ((head = connection.readHead()) != null) {
                String length = new UpstreamConnection.RawRequest(head, new byte[0], "").header("content-length");
                connection.send("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n5\nearly\n");
                received.set(connection.drain(length == null ? 0 : Long.parseLong(length), 64 * 1024, total -> {}));
                connection.send("4\nlate\n0\n\n");
            }
        })) {
            GeneratedBody body = GeneratedBody.ofSize(8L << 20);

            HttpResponse response = await(client.send(upstream.endpoint(), upload(body)));

            assertThat(text(response)).isEqualTo("earlylate");
            assertThat(received.get()).isEqualTo(body.total());
            assertThat(text(await(client.send(upstream.endpoint(), HttpRequest.of(HttpMethod.GET, "/")))))
                    .isEqualTo("earlylate");
            assertThat(upstream.accepted()).isEqualTo(1);
        }
    }
}
