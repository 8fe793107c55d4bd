package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.ServerExtension;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Compression from the YAML, end to end through the proxy: responses, request bodies, SSE, off, reload. */
@ExtendWith(NettyLeakExtension.class)
class GatewayCompressionTest {
    private static final String JSON = "[" + "{\"id\":1,\"title\":\"a todo\",\"done\":false},".repeat(300) + "{}]";
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of((ctx, request) -> switch (request.path()) {
        case "/api/todos", "/plain/todos" -> HttpResponse.builder(HttpStatus.OK)
                .header("etag", "\"7\"")
                .body(MediaType.JSON, HttpData.ofUtf8(JSON))
                .build()
                .toStage();
        case "/api/events" -> HttpResponse.of(
                        HttpStatus.OK,
                        HttpHeaders.of("content-type", "text/event-stream"),
                        HttpBody.ofUtf8("data: one\n\ndata: two\n\n"))
                .toStage();
        case "/api/echo" -> request.body()
                .aggregate(1 << 20)
                .thenApply(data -> HttpResponse.ofText(
                        request.headers().get("content-encoding") + " " + data.length() + " " + data.toStringUtf8()));
        default -> HttpResponse.of(HttpStatus.NOT_FOUND).toStage();
    });

    private static final String CONFIG =
            """
            listener: { host: 127.0.0.1, port: 0 }
            admin: { host: 127.0.0.1, port: 0 }
            upstreams:
              app: { endpoints: ["127.0.0.1:${APP_PORT}"] }
            defaults:
              compression: { level: 5 }
            routes:
              - name: api
                match: { prefix: /api }
                compression: { requestDecompression: { maxSize: 64KiB } }
                proxy: { upstream: app }
              - name: plain
                match: { prefix: /plain }
                compression: off
                proxy: { upstream: app }
            """;

    @TempDir
    Path dir;

    @Test
    void compressesAProxiedResponseTheUpstreamSentPlain() throws Exception {
        try (TestGateway gateway = start()) {
            var response = get(gateway, "/api/todos", "gzip");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("content-encoding")).hasValue("gzip");
            assertThat(response.headers().firstValue("vary")).hasValue("accept-encoding");
            assertThat(response.headers().firstValue("etag")).hasValue("W/\"7\"");
            assertThat(response.body().length).isLessThan(JSON.length() / 5);
            assertThat(gunzip(response.body())).isEqualTo(JSON);
            assertThat(get(gateway, "/api/todos", null).body())
                    .asString(StandardCharsets.UTF_8)
                    .isEqualTo(JSON);
        }
    }

    @Test
    void prefersZstdToGzipByDefaultAndReadsZstdBodiesWithinTheBound() throws Exception {
        try (TestGateway gateway = start()) {
            var response = get(gateway, "/api/todos", "gzip, deflate, br, zstd");
            var inflated = post(gateway, "zstd", Zstd.compress("hello upstream".getBytes(StandardCharsets.UTF_8)));
            var bomb = post(gateway, "zstd", Zstd.compress(new byte[10 << 20]));

            assertThat(response.headers().firstValue("content-encoding")).hasValue("zstd");
            assertThat(new String(Zstd.decompress(response.body(), JSON.length()), StandardCharsets.UTF_8))
                    .isEqualTo(JSON);
            assertThat(new String(inflated.body(), StandardCharsets.UTF_8)).isEqualTo("null 14 hello upstream");
            assertThat(bomb.statusCode()).isEqualTo(413);
        }
    }

    @Test
    void leavesEventStreamsAndRoutesThatTurnItOffAlone() throws Exception {
        try (TestGateway gateway = start()) {
            var events = get(gateway, "/api/events", "gzip");
            var plain = get(gateway, "/plain/todos", "gzip");

            assertThat(events.headers().firstValue("content-encoding")).isEmpty();
            assertThat(new String(events.body(), StandardCharsets.UTF_8)).isEqualTo("data: one\n\ndata: two\n\n");
            assertThat(plain.headers().firstValue("content-encoding")).isEmpty();
            assertThat(plain.headers().firstValue("vary")).isEmpty();
        }
    }

    @Test
    void inflatesARequestBodyForTheUpstreamWithinItsBound() throws Exception {
        try (TestGateway gateway = start()) {
            var inflated = post(gateway, "gzip", gzip("hello upstream".getBytes(StandardCharsets.UTF_8)));
            var bomb = post(gateway, "gzip", gzip(new byte[10 << 20]));

            assertThat(inflated.statusCode()).isEqualTo(200);
            assertThat(new String(inflated.body(), StandardCharsets.UTF_8)).isEqualTo("null 14 hello upstream");
            assertThat(bomb.statusCode()).isEqualTo(413);
        }
    }

    @Test
    void followsTheFileAcrossAReload() throws Exception {
        try (TestGateway gateway = start()) {
            assertThat(get(gateway, "/api/todos", "gzip").headers().firstValue("content-encoding"))
                    .hasValue("gzip");

            gateway.replaceFile(CONFIG.replace("compression: { level: 5 }", "compression: off")
                    .replace("compression: { requestDecompression: { maxSize: 64KiB } }", "compression: off"));
            gateway.gateway().reload();

            assertThat(get(gateway, "/api/todos", "gzip").headers().firstValue("content-encoding"))
                    .isEmpty();
        }
    }

    private TestGateway start() {
        return TestGateway.start(dir, CONFIG, Map.of("APP_PORT", Integer.toString(upstream.port())), false);
    }

    private static java.net.http.HttpResponse<byte[]> get(TestGateway gateway, String path, String acceptEncoding)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri(path)).timeout(Duration.ofSeconds(10));
        if (acceptEncoding != null) {
            request.header("Accept-Encoding", acceptEncoding);
        }
        return CLIENT.send(request.build(), BodyHandlers.ofByteArray());
    }

    private static java.net.http.HttpResponse<byte[]> post(TestGateway gateway, String coding, byte[] encoded)
            throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(gateway.uri("/api/echo"))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Encoding", coding)
                        .POST(BodyPublishers.ofByteArray(encoded))
                        .build(),
                BodyHandlers.ofByteArray());
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(bytes);
        }
        return out.toByteArray();
    }

    private static String gunzip(byte[] bytes) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
