package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.text;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.transport.spi.RawBody;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A response whose head and body arrive in one read reaches the caller with its body complete, so a
 * server can pass it on in one write; a body still arriving is streamed after its head, as before.
 */
class WholeResponseTest {
    private final HttpClient client = HttpClient.builder()
            .options(ClientOptions.builder().eventLoopThreads(1).build())
            .build();

    @AfterEach
    void closeClient() {
        client.close();
    }

    @Test
    void deliversAResponseReadInOneGoWithItsBodyAlreadyReceived() throws Exception {
        CountDownLatch answer = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            answer.await(10, TimeUnit.SECONDS);
            connection.send("HTTP/1.1 200 OK\nContent-Length: 5\n\nhello");
            connection.awaitClose();
        })) {
            // Taken where the response is delivered, on the call's event loop, where the body lives.
            CompletableFuture<ByteBuf> taken = client.send(upstream.endpoint(), get())
                    .toCompletableFuture()
                    .thenApply(response -> ((RawBody) response.body()).takeReceived());
            answer.countDown();

            ByteBuf whole = await(taken);
            try {
                assertThat(whole.toString(US_ASCII)).isEqualTo("hello");
            } finally {
                whole.release();
            }
        }
    }

    @Test
    void deliversTheHeadOfABodyStillArrivingBeforeItsEnd() throws Exception {
        CountDownLatch answer = new CountDownLatch(1);
        CountDownLatch rest = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            answer.await(10, TimeUnit.SECONDS);
            connection.send("HTTP/1.1 200 OK\nContent-Length: 5\n\nhel");
            rest.await(10, TimeUnit.SECONDS);
            connection.send("lo");
            connection.awaitClose();
        })) {
            AtomicReference<ByteBuf> taken = new AtomicReference<>();
            CompletableFuture<HttpResponse> call = client.send(upstream.endpoint(), get())
                    .toCompletableFuture()
                    .thenApply(response -> {
                        taken.set(((RawBody) response.body()).takeReceived());
                        return response;
                    });
            answer.countDown();

            HttpResponse response = await(call);
            assertThat(taken.get()).as("the body was not whole yet").isNull();
            rest.countDown();
            assertThat(text(response)).isEqualTo("hello");
        }
    }

    private static HttpRequest get() {
        return HttpRequest.of(HttpMethod.GET, "/");
    }
}
