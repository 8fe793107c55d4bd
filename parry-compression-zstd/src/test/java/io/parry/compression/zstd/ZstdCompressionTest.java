package io.parry.compression.zstd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStream;
import io.parry.http.HttpData;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.protection.CompressionFilter;
import io.parry.protection.ContentCoding;
import io.parry.protection.RequestDecompressionFilter;
import io.parry.server.Handler;
import io.parry.server.sse.ServerSentEvent;
import io.parry.server.sse.ServerSentEvents;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.ServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** zstd through a real server and a real client, decoded by zstd-jni's decoder or the {@code zstd} command. */
@ExtendWith(NettyLeakExtension.class)
class ZstdCompressionTest {
    private static final String JSON = "[" + "{\"id\":1,\"title\":\"a todo\",\"done\":false},".repeat(300) + "{}]";
    private static final SubmissionPublisher<ServerSentEvent> events = new SubmissionPublisher<>();
    private static final CompletableFuture<Void> subscribed = new CompletableFuture<>();
    private static final Flow.Publisher<ServerSentEvent> EVENTS = subscriber -> {
        events.subscribe(subscriber);
        subscribed.complete(null);
    };

    private static final Handler HANDLER = (ctx, request) -> switch (request.path()) {
        case "/json" -> HttpResponse.of(MediaType.JSON, HttpData.ofUtf8(JSON)).toStage();
        case "/events" -> ServerSentEvents.handler(Duration.ZERO, (c, r, last) -> EVENTS)
                .handle(ctx, request);
        case "/echo" -> request.body().aggregate(8 << 20).thenApply(data -> HttpResponse.ofText(data.toStringUtf8()));
        default -> HttpResponse.of(HttpStatus.NOT_FOUND).toStage();
    };

    private static final List<ContentCoding> CODINGS = List.of(ZstdCoding.ofDefault(), ContentCoding.gzip(6));

    @RegisterExtension
    static final ServerExtension server =
            ServerExtension.of(HANDLER.with(RequestDecompressionFilter.of(1 << 20, CODINGS))
                    .with(CompressionFilter.builder()
                            .encodings(CODINGS)
                            .eventStreams(true)
                            .build()));

    @Test
    void prefersZstdWhenTheClientWeighsItAsMuchAsGzip() throws Exception {
        var response = get("/json", "gzip, deflate, br, zstd");

        assertThat(response.headers().firstValue("content-encoding")).hasValue("zstd");
        assertThat(response.headers().firstValue("vary")).hasValue("accept-encoding");
        assertThat(response.body().length).isLessThan(JSON.length() / 10);
        try (InputStream in = new ZstdInputStream(new java.io.ByteArrayInputStream(response.body()))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(JSON);
        }
    }

    @Test
    void usesGzipWhenTheClientWeighsItHigher() throws Exception {
        var response = get("/json", "zstd;q=0.5, gzip");

        assertThat(response.headers().firstValue("content-encoding")).hasValue("gzip");
    }

    @Test
    void sendsWhatTheZstdCommandDecodes(@TempDir Path dir) throws Exception {
        assumeTrue(command("zstd", "--version"), "the zstd command is missing: apt-get install zstd");
        Path file = dir.resolve("body.zst");
        Files.write(file, get("/json", "zstd").body());

        Process process = new ProcessBuilder("zstd", "-d", "-c", file.toString()).start();
        byte[] decoded = process.getInputStream().readAllBytes();

        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        assertThat(new String(decoded, StandardCharsets.UTF_8)).isEqualTo(JSON);
    }

    @Test
    void flushesEachEventSoTheClientDecodesItBeforeTheNext() throws Exception {
        var response = server.client()
                .send(
                        HttpRequest.newBuilder(server.uri("/events"))
                                .header("Accept-Encoding", "zstd")
                                .build(),
                        BodyHandlers.ofInputStream());
        assertThat(response.headers().firstValue("content-encoding")).hasValue("zstd");
        subscribed.get(5, TimeUnit.SECONDS);
        String first = "data: first\n\n";
        String second = "data: second\n\n";
        try (InputStream in = new ZstdInputStream(response.body())) {
            events.submit(ServerSentEvent.of("first"));
            byte[] firstRead = CompletableFuture.supplyAsync(() -> read(in, first.length()))
                    .get(5, TimeUnit.SECONDS);
            assertThat(new String(firstRead, StandardCharsets.UTF_8)).isEqualTo(first);

            events.submit(ServerSentEvent.of("second"));
            events.close();
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(second);
        }
    }

    @Test
    void decodesAZstdRequestBody() throws Exception {
        var response = post(Zstd.compress(JSON.getBytes(StandardCharsets.UTF_8)));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo(JSON);
    }

    @Test
    void refusesABodyThatDecodesPastTheBoundWith413() throws Exception {
        byte[] bomb = Zstd.compress(new byte[64 << 20]);
        assertThat(bomb.length).isLessThan(8 * 1024);

        assertThat(post(bomb).statusCode()).isEqualTo(413);
    }

    @Test
    void refusesDataThatIsNotZstdWith400() throws Exception {
        assertThat(post("not zstd at all".getBytes(StandardCharsets.UTF_8)).statusCode())
                .isEqualTo(400);
    }

    private static java.net.http.HttpResponse<byte[]> get(String path, String acceptEncoding) throws Exception {
        return server.client()
                .send(
                        HttpRequest.newBuilder(server.uri(path))
                                .header("Accept-Encoding", acceptEncoding)
                                .build(),
                        BodyHandlers.ofByteArray());
    }

    private static java.net.http.HttpResponse<byte[]> post(byte[] body) throws Exception {
        return server.client()
                .send(
                        HttpRequest.newBuilder(server.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .header("Content-Encoding", "zstd")
                                .POST(BodyPublishers.ofByteArray(body))
                                .build(),
                        BodyHandlers.ofByteArray());
    }

    private static byte[] read(InputStream in, int length) {
        try {
            return in.readNBytes(length);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static boolean command(String... command) {
        try {
            return new ProcessBuilder(command).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
