package io.parry.benchmarks.observability;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.parry.http.HttpResponse;
import io.parry.micrometer.ServerMetrics;
import io.parry.server.Server;
import io.parry.server.accesslog.AccessLog;
import io.parry.server.routing.Router;
import io.parry.startup.Startup;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * {@code GET /plaintext} behind a router, with everything an operator turns on ({@code OBSERVABILITY=on}: tracing
 * with the MDC, Micrometer server metrics into a Prometheus registry, and a JSON access log written to the file
 * {@code ACCESS_LOG}, default a temporary file), with all of it off ({@code OBSERVABILITY=off}), or with some of it
 * ({@code OBSERVABILITY=tracing,accesslog}, to measure one part at a time); the observability
 * scenario of {@code benchmarks/observability.sh} runs one against the other.
 */
public final class ObservedHelloServer {
    private ObservedHelloServer() {}

    public static void main(String[] args) throws IOException {
        Startup.prepare();
        Set<String> parts = parts(System.getenv().getOrDefault("OBSERVABILITY", "on"));
        Router router = Router.builder()
                .get("/plaintext", (ctx, request) -> HttpResponse.ofText("Hello, World!")
                        .toStage())
                .build();
        Server.Builder server =
                Server.builder().port(Startup.port()).options(options -> options.tracing(parts.contains("tracing")));
        if (parts.contains("metrics")) {
            ServerMetrics metrics = ServerMetrics.of(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
            server.handler(router.with(metrics)).listener(metrics);
        } else {
            server.handler(router);
        }
        if (parts.contains("accesslog")) {
            server.listener(accessLog());
        }
        server.build().start();
    }

    /** {@code on}, {@code off}, or a comma-separated subset of {@code tracing,metrics,accesslog}. */
    private static Set<String> parts(String setting) {
        switch (setting) {
            case "on":
                return Set.of("tracing", "metrics", "accesslog");
            case "off":
                return Set.of();
            default:
                return Set.of(setting.split(","));
        }
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
