package io.parry.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Filter;
import io.parry.server.Handler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The Prometheus scrape endpoint of a {@link PrometheusMeterRegistry}: a handler answering {@code GET}
 * with the registry's meters, in the OpenMetrics text format when the scraper's {@code Accept} asks for
 * it (Prometheus does) and in the Prometheus text format 0.0.4 otherwise.
 *
 * <pre>{@code
 * PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * Router router = Router.builder()
 *         .get("/metrics", PrometheusEndpoint.handler(registry))
 *         // ...
 *         .build();
 * // or, in front of any handler:
 * Handler handler = api.with(PrometheusEndpoint.filter("/metrics", registry));
 * }</pre>
 *
 * <p>A scrape formats every meter, which takes milliseconds with thousands of series, so it runs on
 * the server's worker executor ({@link Handler#blocking}), never on an event loop.
 */
public final class PrometheusEndpoint {
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String OPEN_METRICS_TEXT = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private PrometheusEndpoint() {}

    /** A handler that answers every request with a scrape of the registry. */
    public static Handler handler(PrometheusMeterRegistry registry) {
        requireNonNull(registry, "registry");
        return Handler.blocking((ctx, request) -> scrape(registry, request));
    }

    /**
     * A filter that answers {@code GET} and {@code HEAD} of exactly this path with a scrape of the
     * registry and passes every other request on: the one line that adds the endpoint to a server
     * without a router.
     *
     * @throws IllegalArgumentException if the path does not start with {@code /}
     */
    public static Filter filter(String path, PrometheusMeterRegistry registry) {
        requireNonNull(path, "path");
        requireNonNull(registry, "registry");
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("path: " + path + " (expected: starting with /)");
        }
        Handler scrape = handler(registry);
        return (next, ctx, request) -> path.equals(request.path())
                        && (request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD)
                ? scrape.handle(ctx, request)
                : next.handle(ctx, request);
    }

    private static HttpResponse scrape(PrometheusMeterRegistry registry, HttpRequest request) {
        String accept = request.headers().get("accept");
        String contentType =
                accept != null && accept.contains("application/openmetrics-text") ? OPEN_METRICS_TEXT : PROMETHEUS_TEXT;
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
        try {
            registry.scrape(out, contentType);
        } catch (IOException e) {
            // A ByteArrayOutputStream does not throw; the registry's signature does.
            throw new UncheckedIOException(e);
        }
        byte[] bytes = out.toByteArray();
        return HttpResponse.of(
                HttpStatus.OK, HttpHeaders.of("content-type", contentType), HttpBody.of(HttpData.wrap(bytes)));
    }
}
