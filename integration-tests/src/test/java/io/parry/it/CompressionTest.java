package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.it.http2.RawHttp2Connection;
import io.parry.protection.CompressionFilter;
import io.parry.protection.RequestDecompressionFilter;
import io.parry.server.Handler;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Response compression and request decompression on a real server, over HTTP/1.1 and HTTP/2. */
@ExtendWith(NettyLeakExtension.class)
class CompressionTest {
    private static final String FIRST = "{\"part\":1,\"text\":\"" + "first ".repeat(400) + "\"}\n";
    private static final String SECOND = "{\"part\":2,\"text\":\"" + "second ".repeat(400) + "\"}\n";
    private static final String JSON = "[" + "{\"id\":1,\"title\":\"a todo\",\"done\":false},".repeat(300) + "{}]";
    private static final CompletableFuture<Void> release = new CompletableFuture<>();

    private static final Handler HANDLER = (ctx, request) -> switch (request.path()) {
        case "/json" -> HttpResponse.of(MediaType.JSON, HttpData.ofUtf8(JSON)).toStage();
        case "/stream" -> HttpResponse.of(
                        HttpStatus.OK,
                        HttpHeaders.of("content-type", "application/x-ndjson"),
                        HttpBody.of(new HeldBack()))
                .toStage();
        case "/echo" -> request.body().aggregate(1 << 20).thenApply(data -> HttpResponse.ofText(data.toStringUtf8()));
        default -> HttpResponse.of(HttpStatus.NOT_FOUND).toStage();
    };

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(HANDLER.with(RequestDecompressionFilter.of(1 << 20))
            .with(CompressionFilter.builder()
                    .contentTypes(List.of("application/json", "application/x-ndjson", "text/plain"))
                    .build()));

    @Test
    void sendsTheFirstCompressedChunkBeforeTheBodyEnds() throws Exception {
        var response = server.client()
                .send(
                        HttpRequest.newBuilder(server.uri("/stream"))
                                .header("Accept-Encoding", "gzip")
                                .build(),
                        BodyHandlers.ofInputStream());
        assertThat(response.headers().firstValue("content-encoding")).hasValue("gzip");
        try (InputStream in = response.body()) {
            GZIPInputStream gunzip =
                    CompletableFuture.supplyAsync(() -> gunzip(in)).get(5, TimeUnit.SECONDS);
            byte[] first = CompletableFuture.supplyAsync(() -> readN(gunzip, FIRST.length()))
                    .get(5, TimeUnit.SECONDS);
            assertThat(new String(first, StandardCharsets.UTF_8)).isEqualTo(FIRST);

            release.complete(null);

            assertThat(new String(gunzip.readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo(SECOND);
        }
    }

    @Test
    void compressesAnHttp2Response() throws Exception {
        try (RawHttp2Connection connection = RawHttp2Connection.open(new Socket("127.0.0.1", server.port()))) {
            connection.headers(1, RawHttp2Connection.get("/json").add("accept-encoding", "gzip"), true);

            RawHttp2Connection.Response response = connection.response(1);

            assertThat(response.head().status().toString()).isEqualTo("200");
            assertThat(response.head().get("content-encoding").toString()).isEqualTo("gzip");
            assertThat(response.head().get("content-length").toString())
                    .isEqualTo(String.valueOf(response.body().length));
            assertThat(new String(
                            gunzip(new ByteArrayInputStream(response.body())).readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo(JSON);
        }
    }

    @Test
    void answersHeadWithTheHeadOfTheCompressedGetAndNoBody() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send(
                    """
                    HEAD /json HTTP/1.1
                    Host: localhost
                    Accept-Encoding: gzip

                    GET /json HTTP/1.1
                    Host: localhost
                    Accept-Encoding: gzip

                    """);
            RawResponse head = connection.readResponseHead();
            RawResponse get = connection.readResponse();

            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("content-encoding")).isEqualTo("gzip");
            assertThat(head.header("vary")).isEqualTo("accept-encoding");
            assertThat(head.header("content-length")).isNull();
            assertThat(get.header("content-encoding")).isEqualTo("gzip");
            assertThat(get.header("vary")).isEqualTo("accept-encoding");
        }
    }

    @Test
    void inflatesARequestBodyAndCompressesTheAnswer() throws Exception {
        ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gzipped)) {
            out.write(JSON.getBytes(StandardCharsets.UTF_8));
        }
        var response = server.client()
                .send(
                        HttpRequest.newBuilder(server.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .header("Content-Encoding", "gzip")
                                .header("Accept-Encoding", "gzip")
                                .POST(BodyPublishers.ofByteArray(gzipped.toByteArray()))
                                .build(),
                        BodyHandlers.ofInputStream());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(new String(gunzip(response.body()).readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo(JSON);
    }

    private static GZIPInputStream gunzip(InputStream in) {
        try {
            return new GZIPInputStream(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] readN(InputStream in, int length) {
        try {
            return in.readNBytes(length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Publishes {@link #FIRST} at once and {@link #SECOND} only when the test releases it. */
    private static final class HeldBack implements Flow.Publisher<HttpData> {
        @Override
        public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
            subscriber.onSubscribe(new Flow.Subscription() {
                private int sent;

                @Override
                public synchronized void request(long n) {
                    if (sent == 0) {
                        sent = 1;
                        subscriber.onNext(HttpData.ofUtf8(FIRST));
                        if (n > 1) {
                            sendSecondOnRelease();
                        }
                    } else if (sent == 1) {
                        sendSecondOnRelease();
                    }
                }

                private void sendSecondOnRelease() {
                    sent = 2;
                    release.thenRun(() -> {
                        subscriber.onNext(HttpData.ofUtf8(SECOND));
                        subscriber.onComplete();
                    });
                }

                @Override
                public void cancel() {
                    sent = 2;
                }
            });
        }
    }
}
