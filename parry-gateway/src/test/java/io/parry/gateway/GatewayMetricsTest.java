package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.testing.ServerExtension;
import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The gateway's meters: scraped by Prometheus on the admin listener, or published over JMX. */
class GatewayMetricsTest {
    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of(EchoUpstream.named("todo"));

    private static final String LISTENERS =
            """
            listener: { host: 127.0.0.1, port: 0 }
            admin: { host: 127.0.0.1, port: 0 }
            """;
    private static final String TWO_UPSTREAMS = LISTENERS
            + """
            upstreams:
              todo: { endpoints: ["127.0.0.1:${DEMO_SERVICE_PORT}"] }
              spare: { endpoints: ["127.0.0.1:${DEMO_SERVICE_PORT}"] }
            routes:
              - { name: todos, match: { prefix: /api/todos }, proxy: { upstream: todo, stripPrefix: /api } }
              - { name: spare, match: { prefix: /spare }, proxy: { upstream: spare } }
            """;

    @TempDir
    Path dir;

    @Test
    void scrapeHasServerRequestsByRouteNameAndTheAddedLatency() {
        try (TestGateway gateway = start(TWO_UPSTREAMS)) {
            assertThat(gateway.get("/api/todos/1").statusCode()).isEqualTo(200);

            // Requests are recorded when their last byte is written, a moment after the client has it.
            Await.until("the request is recorded", () -> scrape(gateway).contains("route=\"todos\""));
            String metrics = scrape(gateway);

            assertThat(metrics)
                    .contains("parry_server_requests_seconds_count{method=\"GET\",route=\"todos\",status=\"2xx\"} 1")
                    .contains("parry_proxy_added_latency_seconds_count{route=\"todos\"} 1")
                    .contains("parry_proxy_added_latency_seconds_bucket{route=\"todos\",le=\"0.05\"}")
                    .contains("parry_proxy_requests_seconds_count{endpoint=\"127.0.0.1:" + upstream.port()
                            + "\",status=\"2xx\",upstream=\"todo\"} 1")
                    .contains("parry_server_connections ");
        }
    }

    @Test
    void servesThePrometheusTextFormat() {
        try (TestGateway gateway = start(TWO_UPSTREAMS)) {
            HttpResponse<String> response = gateway.admin("/admin/metrics");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("content-type"))
                    .hasValue("text/plain; version=0.0.4; charset=utf-8");
        }
    }

    @Test
    void upstreamRetiredOnReloadDisappearsFromTheMetricsAndAReplacedOneStays() {
        try (TestGateway gateway = start(TWO_UPSTREAMS)) {
            assertThat(scrape(gateway))
                    .contains("parry_proxy_inflight{upstream=\"spare\"}")
                    .contains("parry_proxy_inflight{upstream=\"todo\"}");

            gateway.replaceFile(
                    LISTENERS
                            + """
                    upstreams:
                      todo: { endpoints: ["127.0.0.1:${DEMO_SERVICE_PORT}"], maxConcurrent: 10 }
                    routes:
                      - { name: todos, match: { prefix: /api/todos }, proxy: { upstream: todo } }
                    """);
            assertThat(gateway.gateway().reload().applied()).isTrue();

            String metrics = scrape(gateway);
            assertThat(metrics).doesNotContain("upstream=\"spare\"");
            assertThat(metrics)
                    .contains("parry_proxy_inflight{upstream=\"todo\"}")
                    .contains("parry_proxy_endpoint_healthy{endpoint=\"127.0.0.1:" + upstream.port()
                            + "\",upstream=\"todo\"} 1.0");
        }
    }

    @Test
    void metricsOffServeNoScrape() {
        try (TestGateway gateway = start("metrics: off\n" + TWO_UPSTREAMS)) {
            assertThat(gateway.get("/api/todos").statusCode()).isEqualTo(200);

            assertThat(gateway.admin("/admin/metrics").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void jmxPublishesMBeansWhileTheGatewayRuns() throws Exception {
        MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
        ObjectName connections = new ObjectName("metrics:name=parryServerConnections,*");
        try (TestGateway gateway = start("metrics: { prometheus: false, jmx: true }\n" + TWO_UPSTREAMS)) {
            assertThat(gateway.admin("/admin/metrics").statusCode()).isEqualTo(404);
            assertThat(mbeans.queryNames(connections, null)).hasSize(1);
        }

        assertThat(mbeans.queryNames(connections, null)).isEmpty();
    }

    private TestGateway start(String yaml) {
        return TestGateway.start(dir, yaml, Map.of("DEMO_SERVICE_PORT", Integer.toString(upstream.port())), false);
    }

    private static String scrape(TestGateway gateway) {
        HttpResponse<String> response = gateway.admin("/admin/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
