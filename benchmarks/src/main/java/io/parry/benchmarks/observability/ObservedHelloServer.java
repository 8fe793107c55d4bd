package io.parry.benchmarks.observability;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.parry.http.HttpResponse;
import io.parry.micrometer.ServerMetrics;
import io.parry.server.Server;
import io.parry.server.accesslog.AccessLog;
import io.parry.server.routing.Router;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code GET /plaintext} behind a router, with everything an operator turns on ({@code OBSERVABILITY=on}: tracing
 * with the MDC, Micrometer server metrics into a Prometheus registry, and a JSON access log written to the file
 * {@code ACCESS_LOG}, default a temporary file) or with all of it off ({@code OBSERVABILITY=off}); the observability
 * scenario of {@code benchmarks/observability.sh} runs one against the other.
 */
public final class ObservedHelloServer {
    private ObservedHelloServer() {}

    public static void main(String[] args) throws IOException {
        boolean on = !"off".equals(System.getenv().getOrDefault("OBSERVABILITY", "on"));
        Router router = Router.builder()
                .get("/plaintext", (ctx, request) -> HttpResponse.ofText("Hello, World!")
                        .toStage())
                .build();
        Server.Builder server = Server.builder()
                .port(Integer.parseInt(System.getenv().getOrDefault("PORT", "8080")))
                .options(options -> options.tracing(on));
        if (on) {
            ServerMetrics metrics = ServerMetrics.of(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
            server.handler(router.with(metrics)).listener(metrics).listener(accessLog());
        } else {
            server.handler(router);
        }
        server.build().start();
    }

    private static AccessLog accessLog() throws IOException {
        String file = System.getenv("ACCESS_LOG");
        Path path = file == null || file.isBlank() ? Files.createTempFile("parry-access", ".log") : Path.of(file);
        BufferedWriter writer = Files.newBufferedWriter(path);
        return AccessLog.builder()
                .sink(line -> {
                    try {
                        writer.write(line);
                        writer.newLine();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .build();
    }
}
