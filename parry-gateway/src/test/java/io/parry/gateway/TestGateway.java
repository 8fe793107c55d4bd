package io.parry.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A gateway started on a configuration file written to a test's directory, with a JDK client for
 * its listener and its admin listener. The configuration's listeners should use port 0.
 */
final class TestGateway implements AutoCloseable {
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final Path file;
    private final Gateway gateway;

    private TestGateway(Path file, Gateway gateway) {
        this.file = file;
        this.gateway = gateway;
    }

    static TestGateway start(Path dir, String yaml, Map<String, String> env) {
        return start(dir, yaml, env, true);
    }

    static TestGateway start(Path dir, String yaml, Map<String, String> env, boolean watchFile) {
        return start(dir, yaml, env, builder -> builder.watchFile(watchFile));
    }

    /** A gateway that does not watch its file, with more settings made by {@code setup}. */
    static TestGateway start(Path dir, String yaml, Map<String, String> env, Consumer<Gateway.Builder> setup) {
        Path file = dir.resolve("gateway.yaml");
        write(file, yaml);
        Gateway.Builder builder = Gateway.builder(file).environment(env).watchFile(false);
        setup.accept(builder);
        return new TestGateway(file, builder.start());
    }

    Gateway gateway() {
        return gateway;
    }

    Path file() {
        return file;
    }

    /** Replaces the file the way editors do: write a temporary file, then rename it over the old one. */
    void replaceFile(String yaml) {
        Path temporary = file.resolveSibling("gateway.yaml.tmp");
        write(temporary, yaml);
        try {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the file in place. */
    void writeFile(String yaml) {
        write(file, yaml);
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)));
    }

    HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.timeout(Duration.ofSeconds(10)).build(), BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends a GET without waiting for its answer. */
    CompletableFuture<HttpResponse<String>> sendAsync(String path) {
        return CLIENT.sendAsync(
                HttpRequest.newBuilder(uri(path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                BodyHandlers.ofString());
    }

    HttpResponse<String> admin(String path) {
        return send(HttpRequest.newBuilder(adminUri(path)));
    }

    HttpResponse<String> adminPost(String path) {
        return send(HttpRequest.newBuilder(adminUri(path)).POST(BodyPublishers.noBody()));
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + gateway.port() + path);
    }

    URI adminUri(String path) {
        return URI.create("http://127.0.0.1:" + gateway.adminPort() + path);
    }

    @Override
    public void close() {
        gateway.stop(Duration.ofSeconds(5));
    }

    private static void write(Path file, String yaml) {
        try {
            Files.writeString(file, yaml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
