package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The access log: on by default, one line per request with the route, upstream, trace and status. */
class GatewayAccessLogTest {
    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of(EchoUpstream.named("todo"));

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String ROUTES =
            """
            listener: { host: 127.0.0.1, port: 0 }
            admin: { host: 127.0.0.1, port: 0 }
            upstreams:
              todo: { endpoints: ["127.0.0.1:${DEMO_SERVICE_PORT}"] }
            routes:
              - { name: todos, match: { prefix: /api/todos }, proxy: { upstream: todo, stripPrefix: /api } }
              - { name: hello, match: { path: /hello }, respond: { body: hi } }
            """;

    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    @TempDir
    Path dir;

    @Test
    void writesAJsonLinePerProxiedRequestWithRouteUpstreamTraceIdAndStatus() throws Exception {
        try (TestGateway gateway = start(ROUTES)) {
            int status = gateway.send(HttpRequest.newBuilder(gateway.uri("/api/todos/7"))
                            .header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01"))
                    .statusCode();

            JsonNode line = JSON.readTree(nextLine());
            assertThat(status).isEqualTo(200);
            assertThat(line.get("method").asText()).isEqualTo("GET");
            assertThat(line.get("path").asText()).isEqualTo("/api/todos/7");
            assertThat(line.get("route").asText()).isEqualTo("todos");
            assertThat(line.get("upstream").asText()).isEqualTo("todo/127.0.0.1:" + upstream.port());
            assertThat(line.get("traceId").asText()).isEqualTo(TRACE_ID);
            assertThat(line.get("status").asInt()).isEqualTo(200);
            assertThat(line.get("remote").asText()).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void logsRequestsNoRouteTakesWithoutARoute() throws Exception {
        try (TestGateway gateway = start(ROUTES)) {
            assertThat(gateway.get("/nowhere").statusCode()).isEqualTo(404);

            JsonNode line = JSON.readTree(nextLine());
            assertThat(line.get("route").isNull()).isTrue();
            assertThat(line.get("upstream").isNull()).isTrue();
            assertThat(line.get("status").asInt()).isEqualTo(404);
        }
    }

    @Test
    void writesTheCombinedFormatWhenAsked() throws Exception {
        try (TestGateway gateway = start("accessLog: combined\n" + ROUTES)) {
            assertThat(gateway.get("/hello?x=1").statusCode()).isEqualTo(200);

            assertThat(nextLine()).startsWith("127.0.0.1 - - [").contains("\"GET /hello?x=1 HTTP/1.1\" 200 2 ");
        }
    }

    @Test
    void writesNothingWhenTheAccessLogIsOff() {
        try (TestGateway gateway = start("accessLog: off\n" + ROUTES)) {
            assertThat(gateway.get("/hello").statusCode()).isEqualTo(200);
            assertThat(gateway.get("/api/todos").statusCode()).isEqualTo(200);

            // A stop writes every line still queued, so an access log that was on would have written them by now.
            gateway.close();
        }

        assertThat(lines).isEmpty();
    }

    @Test
    void leavesTheTraceIdOutWhenTracingIsOff() throws Exception {
        try (TestGateway gateway = start("tracing: false\n" + ROUTES)) {
            assertThat(gateway.get("/hello").statusCode()).isEqualTo(200);

            assertThat(JSON.readTree(nextLine()).get("traceId").isNull()).isTrue();
        }
    }

    @Test
    void givesEveryRequestATraceIdWhenTracingIsOn() throws Exception {
        try (TestGateway gateway = start(ROUTES)) {
            assertThat(gateway.get("/hello").statusCode()).isEqualTo(200);

            assertThat(JSON.readTree(nextLine()).get("traceId").asText()).hasSize(32);
        }
    }

    private TestGateway start(String yaml) {
        return TestGateway.start(
                dir,
                yaml,
                Map.of("DEMO_SERVICE_PORT", Integer.toString(upstream.port())),
                builder -> builder.accessLogSink(lines::add));
    }

    private String nextLine() throws InterruptedException {
        String line = lines.poll(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
        assertThat(line).as("an access log line").isNotNull();
        return line;
    }
}
