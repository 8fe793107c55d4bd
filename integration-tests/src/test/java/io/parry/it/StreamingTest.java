package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.server.RequestLimits;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class StreamingTest {
    private static final CountDownLatch firstChunkSeen = new CountDownLatch(1);

    private static final Handler HANDLER = (ctx, request) -> request.path().equals("/count")
            ? countChunksAsTheyArrive(request)
            : HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), request.body())
                    .toStage();

    /** Reads the body one chunk at a time, signalling the first before the rest has been sent. */
    private static CompletionStage<HttpResponse> countChunksAsTheyArrive(io.parry.http.HttpRequest request) {
        CompletableFuture<HttpResponse> response = new CompletableFuture<>();
        request.body().subscribe(new Flow.Subscriber<HttpData>() {
            private Flow.Subscription subscription;
            private long bytes;
            private int chunks;

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                this.subscription = subscription;
                subscription.request(1);
            }

            @Override
            public void onNext(HttpData chunk) {
                bytes += chunk.length();
                chunks++;
                firstChunkSeen.countDown();
                subscription.request(1);
            }

            @Override
            public void onError(Throwable failure) {
                response.completeExceptionally(failure);
            }

            @Override
            public void onComplete() {
                response.complete(HttpResponse.ofText(bytes + " bytes in " + chunks + " chunks"));
            }
        });
        return response;
    }

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(
            HANDLER,
            options -> options.limits(
                    RequestLimits.builder().maxBodySize(Long.MAX_VALUE).build()));

    /**
     * Sends and reads at once, as a full-duplex client does: the server streams the echo back with
     * backpressure and never holds the whole body.
     */
    @Test
    void echoesA32MebibyteBodyByteForByteWhileItArrives() throws Exception {
        byte[] payload = new byte[32 * 1024 * 1024];
        new Random(7).nextBytes(payload);
        try (RawConnection connection = server.connect()) {
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                connection.send("POST /echo HTTP/1.1\nHost: a\nContent-Length: " + payload.length + "\n\n");
                for (int offset = 0; offset < payload.length; offset += 65536) {
                    connection.sendBytes(Arrays.copyOfRange(payload, offset, offset + 65536));
                }
            });
            RawResponse response = connection.readResponse();

            sent.get(30, TimeUnit.SECONDS);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("content-length")).isEqualTo(String.valueOf(payload.length));
            assertThat(digest(response.body())).isEqualTo(digest(payload));
        }
    }

    @Test
    void handsTheBodyToTheHandlerChunkByChunkAsItArrives() throws Exception {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /count HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n5\nfirst\n");

            // The rest is sent only once the handler has seen the first chunk.
            assertThat(firstChunkSeen.await(5, TimeUnit.SECONDS)).isTrue();
            connection.send("6\nsecond\n5\nthird\n0\n\n");

            assertThat(connection.readResponse().bodyText()).isEqualTo("16 bytes in 3 chunks");
        }
    }

    @Test
    void echoesAChunkedBodyToTheJdkClient() throws Exception {
        byte[] payload = "streamed through a publisher".repeat(1000).getBytes(StandardCharsets.UTF_8);

        java.net.http.HttpResponse<byte[]> response = server.client()
                .send(
                        HttpRequest.newBuilder(server.uri("/echo"))
                                .POST(BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(payload)))
                                .build(),
                        BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(payload);
    }

    private static byte[] digest(byte[] bytes) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(bytes);
    }
}
