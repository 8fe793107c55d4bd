package io.parry.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import io.parry.testing.ServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PrometheusEndpointTest {
    private static final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private static final Handler app =
            (ctx, request) -> HttpResponse.ofText("app").toStage();
    private static final EndedRequests ended = new EndedRequests();
    private static final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static Server server;

    @RegisterExtension
    static final ServerExtension filtered =
            ServerExtension.of(app.with(PrometheusEndpoint.filter("/admin/metrics", registry)));

    @BeforeAll
    static void start() {
        ServerMetrics metrics = ServerMetrics.of(registry);
        Router router = Router.builder()
                .get("/metrics", PrometheusEndpoint.handler(registry))
                .get("/hello", app)
                .build();
        server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(router)
                .listener(metrics)
                .listener(ended)
                .build();
        metrics.bind(server);
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop(Duration.ofSeconds(2));
    }

    @Test
    void answersAScrapeOfTheServersMetricsInThePrometheusTextFormat() throws Exception {
        get("/hello", "*/*");
        ended.await(1);

        java.net.http.HttpResponse<String> response = get("/metrics", "text/plain");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(response.body())
                .contains("parry_server_requests_seconds_count{method=\"GET\",route=\"/hello\",status=\"2xx\"} 1")
                .contains("parry_server_connections ")
                .contains("parry_server_rejections_total{reason=\"HEADERS_TOO_LARGE\"} 0.0");
    }

    @Test
    void answersOpenMetricsWhenTheScraperAsksForIt() throws Exception {
        registry.counter("parry.test.open").increment();

        java.net.http.HttpResponse<String> response =
                get("/metrics", "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1");

        assertThat(response.headers().firstValue("content-type"))
                .hasValue("application/openmetrics-text; version=1.0.0; charset=utf-8");
        assertThat(response.body()).contains("parry_test_open_total 1.0").endsWith("# EOF\n");
    }

    @Test
    void filterAnswersItsPathAndPassesTheRestOn() throws Exception {
        HttpClient filteredClient = filtered.client();

        String scrape = filteredClient
                .send(HttpRequest.newBuilder(filtered.uri("/admin/metrics")).build(), BodyHandlers.ofString())
                .body();
        String other = filteredClient
                .send(HttpRequest.newBuilder(filtered.uri("/admin/metricsx")).build(), BodyHandlers.ofString())
                .body();

        assertThat(scrape).contains("# TYPE");
        assertThat(other).isEqualTo("app");
    }

    @Test
    void filterRefusesAPathWithoutLeadingSlash() {
        assertThatThrownBy(() -> PrometheusEndpoint.filter("metrics", registry))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("path: metrics (expected: starting with /)");
    }

    private static java.net.http.HttpResponse<String> get(String path, String accept) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("accept", accept)
                .build();
        return client.send(request, BodyHandlers.ofString());
    }
}
