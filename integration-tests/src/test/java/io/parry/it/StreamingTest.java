package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class StreamingTest {
    private static final Handler HANDLER = (ctx, request) ->
            HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), request.body()).toStage();

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
