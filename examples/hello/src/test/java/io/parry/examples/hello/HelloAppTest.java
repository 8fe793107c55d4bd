package io.parry.examples.hello;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class HelloAppTest {
    private static Server server;
    private static final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() {
        server = HelloApp.start(0);
    }

    @AfterAll
    static void stop() {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void answersPlaintext() throws Exception {
        HttpResponse<String> response = get("/plaintext");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
        assertThat(response.body()).isEqualTo("Hello, World!");
    }

    @Test
    void answersJson() throws Exception {
        HttpResponse<String> response = get("/json");

        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo("{\"message\":\"Hello, World!\"}");
    }

    @Test
    void echoesTheBody() throws Exception {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(uri("/echo"))
                        .header("content-type", "text/plain")
                        .POST(BodyPublishers.ofString("x".repeat(1024)))
                        .build(),
                BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("x".repeat(1024));
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain");
    }

    @Test
    void answersAfterTheDelay() throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> response = get("/delay?ms=100");

        assertThat(response.body()).isEqualTo("Hello, World!");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(100));
    }

    @Test
    void refusesABadDelay() throws Exception {
        assertThat(get("/delay?ms=soon").statusCode()).isEqualTo(400);
        assertThat(get("/delay?ms=600000").statusCode()).isEqualTo(400);
    }

    @Test
    void answersUnknownPathsAndMethodsWithProblems() throws Exception {
        HttpResponse<String> missing = get("/nope");
        HttpResponse<String> wrongMethod =
                client.send(HttpRequest.newBuilder(uri("/plaintext")).DELETE().build(), BodyHandlers.ofString());

        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(wrongMethod.statusCode()).isEqualTo(405);
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).build(), BodyHandlers.ofString());
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
