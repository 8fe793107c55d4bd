package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.server.Server;
import io.parry.server.accesslog.AccessLog;
import io.parry.server.accesslog.AccessLogFormat;
import io.parry.server.routing.Router;
import io.parry.testing.RawConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AccessLogTest {
    private static final BlockingQueue<String> jsonLines = new LinkedBlockingQueue<>();
    private static final BlockingQueue<String> combinedLines = new LinkedBlockingQueue<>();
    private static final CompletableFuture<Void> waiting = new CompletableFuture<>();
    private static final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static AccessLog json;
    private static AccessLog combined;
    private static Server server;

    @BeforeAll
    static void start() {
        json = AccessLog.builder().sink(jsonLines::add).build();
        combined = AccessLog.builder()
                .format(AccessLogFormat.combined())
                .sink(combinedLines::add)
                .build();
        Router router = Router.builder()
                .get("/todos/{id}", (ctx, request) -> HttpResponse.ofText("todo")
                        .toStage())
                .post("/todos", (ctx, request) -> request.body()
                        .aggregate(1 << 16)
                        .thenApply(body -> HttpResponse.ofText("created " + body.length())))
                .get("/wait", (ctx, request) -> {
                    waiting.complete(null);
                    return new CompletableFuture<>();
                })
                .build();
        server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(router)
                .listener(json)
                .listener(combined)
                .build()
                .start();
    }

    @AfterAll
    static void stop() {
        server.stop(Duration.ofSeconds(5));
        json.close();
        combined.close();
    }

    @BeforeEach
    void forgetEarlierLines() {
        jsonLines.clear();
        combinedLines.clear();
    }

    @Test
    void writesAJsonLineForAGet() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri("/todos/7?x=1"))
                .header("User-Agent", "it/1")
                .build();
        client.send(request, BodyHandlers.ofString());

        assertThat(next(jsonLines, "/todos/7"))
                .matches("\\{\"time\":\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\",\"remote\":\"127.0.0.1\","
                        + "\"method\":\"GET\",\"path\":\"/todos/7\",\"route\":\"/todos/\\{id}\",\"status\":200,"
                        + "\"bytesIn\":0,\"bytesOut\":4,\"durationMs\":\\d+\\.\\d{3},\"upstream\":null,\"endedBy\":null,"
                        + "\"traceId\":\"[0-9a-f]{32}\",\"spanId\":\"[0-9a-f]{16}\","
                        + "\"requestId\":\"[^\"]+\",\"userAgent\":\"it/1\"}");
    }

    @Test
    void writesACombinedLineForAGet() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri("/todos/7?x=1"))
                .header("User-Agent", "it/1")
                .header("Referer", "http://example.com/")
                .build();
        client.send(request, BodyHandlers.ofString());

        assertThat(next(combinedLines, "/todos/7"))
                .matches("127\\.0\\.0\\.1 - - \\[\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d \\+0000] "
                        + "\"GET /todos/7\\?x=1 HTTP/1\\.1\" 200 4 \"http://example\\.com/\" \"it/1\"");
    }

    @Test
    void countsTheBodyBytesOfAPost() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri("/todos"))
                .POST(HttpRequest.BodyPublishers.ofString("x".repeat(300)))
                .build();
        client.send(request, BodyHandlers.ofString());

        assertThat(next(jsonLines, "POST"))
                .contains("\"method\":\"POST\",\"path\":\"/todos\",\"route\":\"/todos\",\"status\":200,"
                        + "\"bytesIn\":300,\"bytesOut\":11,");
    }

    @Test
    void writesALineForARequestRefusedWith431() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.sendExactly("GET /todos/1 HTTP/1.1\r\nHost: a\r\nX-Big: " + "b".repeat(20_000) + "\r\n\r\n");
            assertThat(connection.readResponse().status()).isEqualTo(431);
        }

        assertThat(next(jsonLines, "\"status\":431")).contains("\"path\":\"/todos/1\",\"route\":null,\"status\":431,");
        assertThat(next(combinedLines, "\" 431 ")).contains("\"GET /todos/1 HTTP/1.1\" 431 ");
    }

    @Test
    void writesALineWithStatus0WhenTheClientLeftFirst() throws Exception {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /wait HTTP/1.1\nHost: a\n\n");
            waiting.get(5, TimeUnit.SECONDS);
        }

        assertThat(next(jsonLines, "/wait")).contains("\"path\":\"/wait\",\"route\":\"/wait\",\"status\":0,");
        assertThat(next(combinedLines, "/wait")).contains("\"GET /wait HTTP/1.1\" 0 -");
    }

    @Test
    void dropsNothingWhileTheWriterKeepsUp() throws Exception {
        for (int i = 0; i < 20; i++) {
            client.send(HttpRequest.newBuilder(uri("/todos/" + i)).build(), BodyHandlers.ofString());
        }
        for (int i = 0; i < 20; i++) {
            next(jsonLines, "/todos/");
        }

        assertThat(json.dropped()).isZero();
    }

    /** The next line about this test's request; lines of earlier tests' requests may still arrive late. */
    private static String next(BlockingQueue<String> lines, String marker) {
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            String line;
            do {
                line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                assertThat(line)
                        .as("an access log line containing " + marker + " within 5 s")
                        .isNotNull();
            } while (!line.contains(marker));
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
