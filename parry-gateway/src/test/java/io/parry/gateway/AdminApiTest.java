package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The admin listener's endpoints and what they show. */
class AdminApiTest {
    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of(EchoUpstream.named("todo"));

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIG =
            """
            version: "2026-11-22.1"
            listener: { host: 127.0.0.1, port: 0 }
            admin: { host: 127.0.0.1, port: 0 }
            upstreams:
              todo:
                endpoints: ["127.0.0.1:${DEMO_SERVICE_PORT}", { address: "127.0.0.1:1", weight: 3 }]
                balancing: weighted_round_robin
                breaker: { failureRateThreshold: 60, slidingWindowSize: 10, minimumCalls: 5, openDuration: 2s, halfOpenCalls: 1 }
                maxConcurrent: 100
              off:
                endpoints: ["127.0.0.1:${DEMO_SERVICE_PORT}"]
                breaker: off
                adaptiveConcurrency: { initialLimit: 25, minLimit: 5, maxLimit: 50 }
            routes:
              - name: todos
                match: { prefix: /api/todos, methods: [GET, POST], headers: { X-Env: prod } }
                proxy:
                  upstream: todo
                  stripPrefix: /api
                  host: endpoint
                  timeouts: { responseHeaders: 5s }
                  retry: { maxAttempts: 2, backoff: 20ms }
              - name: hello
                match: { path: /hello, host: example.com }
                respond: { body: hi }
              - match: { path: "/old/{id}" }
                redirect: { location: /new }
            """;

    @TempDir
    static Path dir;

    private static TestGateway gateway;

    @BeforeAll
    static void startGateway() {
        gateway = TestGateway.start(dir, CONFIG, Map.of("DEMO_SERVICE_PORT", Integer.toString(upstream.port())), false);
    }

    @AfterAll
    static void stopGateway() {
        gateway.close();
    }

    @Test
    void healthSaysUp() throws Exception {
        HttpResponse<String> response = gateway.admin("/admin/health");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.headers().firstValue("cache-control")).hasValue("no-store");
        assertThat(response.body()).isEqualTo("{\"status\":\"UP\",\"checks\":{}}");
    }

    @Test
    void readySaysUpWithTheServerAndTheConfigurationVersion() throws Exception {
        JsonNode ready = json(gateway.admin("/admin/ready"));

        assertThat(ready.get("status").asText()).isEqualTo("UP");
        assertThat(ready.at("/checks/server/status").asText()).isEqualTo("UP");
        assertThat(ready.at("/checks/config/status").asText()).isEqualTo("UP");
        assertThat(ready.at("/checks/config/detail").asText()).isEqualTo("version 1");
    }

    @Test
    void routesShowTheLiveTableWithItsVersion() throws Exception {
        JsonNode routes = json(gateway.admin("/admin/routes"));

        assertThat(routes.get("version").asLong()).isEqualTo(1);
        assertThat(routes.get("label").asText()).isEqualTo("2026-11-22.1");
        assertThat(routes.has("appliedAt")).isTrue();
        assertThat(routes.has("lastReloadError")).isFalse();
        JsonNode todos = routes.at("/routes/0");
        assertThat(todos.get("name").asText()).isEqualTo("todos");
        assertThat(todos.get("match").toString())
                .isEqualTo("{\"prefix\":\"/api/todos\",\"kind\":\"prefix\",\"methods\":[\"GET\",\"POST\"],"
                        + "\"headers\":{\"X-Env\":\"prod\"}}");
        JsonNode proxy = todos.at("/action/proxy");
        assertThat(proxy.get("upstream").asText()).isEqualTo("todo");
        assertThat(proxy.get("stripPrefix").asText()).isEqualTo("/api");
        assertThat(proxy.get("host").asText()).isEqualTo("endpoint");
        assertThat(proxy.get("timeouts").toString()).isEqualTo("{\"responseHeaders\":\"5s\"}");
        assertThat(proxy.at("/retry/maxAttempts").asInt()).isEqualTo(2);
        assertThat(proxy.at("/retry/backoff").asText()).isEqualTo("20ms");
        assertThat(routes.at("/routes/1/match/host").asText()).isEqualTo("example.com");
        assertThat(routes.at("/routes/1/action/respond/body").asText()).isEqualTo("hi");
        assertThat(routes.at("/routes/2/name").asText()).isEqualTo("route-3");
        assertThat(routes.at("/routes/2/match/kind").asText()).isEqualTo("template");
        assertThat(routes.at("/routes/2/action/redirect/location").asText()).isEqualTo("/new");
    }

    @Test
    void upstreamsShowEndpointsHealthBreakersAndPools() throws Exception {
        assertThat(gateway.send(HttpRequest.newBuilder(gateway.uri("/api/todos"))
                                .header("X-Env", "prod"))
                        .statusCode())
                .isEqualTo(200);
        // The group counts a request until the gateway has sent its last byte, a moment after the client has it.
        Await.until(
                "no request in flight",
                () -> upstreams().at("/upstreams/0/inFlight").asInt() == 0);

        JsonNode upstreams = upstreams();

        assertThat(upstreams.get("version").asLong()).isEqualTo(1);
        JsonNode todo = upstreams.at("/upstreams/0");
        assertThat(todo.get("name").asText()).isEqualTo("todo");
        assertThat(todo.get("balancing").asText()).isEqualTo("weighted_round_robin");
        assertThat(todo.get("breaker").asText()).isEqualTo("on");
        assertThat(todo.get("maxConcurrent").asInt()).isEqualTo(100);
        assertThat(todo.get("inFlight").asInt()).isZero();
        assertThat(todo.get("bulkheadRejections").asLong()).isZero();
        assertThat(todo.get("webSocketSessions").asInt()).isZero();
        JsonNode endpoint = todo.at("/endpoints/0");
        assertThat(endpoint.get("address").asText()).isEqualTo("127.0.0.1:" + upstream.port());
        assertThat(endpoint.get("weight").asInt()).isEqualTo(1);
        assertThat(endpoint.get("healthy").asBoolean()).isTrue();
        assertThat(endpoint.get("ejected").asBoolean()).isFalse();
        assertThat(endpoint.get("healthCheckPassing").asBoolean()).isTrue();
        assertThat(endpoint.get("inFlight").asInt()).isZero();
        assertThat(endpoint.get("consecutiveFailures").asInt()).isZero();
        assertThat(endpoint.get("breaker").asText()).isEqualTo("CLOSED");
        assertThat(endpoint.get("pool").toString()).matches("\\{\"active\":0,\"idle\":\\d+,\"pending\":0}");
        assertThat(todo.at("/endpoints/1/weight").asInt()).isEqualTo(3);
        assertThat(upstreams.at("/upstreams/1/name").asText()).isEqualTo("off");
        assertThat(upstreams.at("/upstreams/1/endpoints/0/breaker").asText()).isEqualTo("DISABLED");
        assertThat(todo.get("adaptiveConcurrency").isNull()).isTrue();
        JsonNode adaptive = upstreams.at("/upstreams/1/adaptiveConcurrency");
        assertThat(adaptive.get("limit").asInt()).isEqualTo(25);
        assertThat(adaptive.get("sheds").asLong()).isZero();
        assertThat(adaptive.get("minLimit").asInt()).isEqualTo(5);
        assertThat(adaptive.get("maxLimit").asInt()).isEqualTo(50);
        assertThat(upstreams.get("retiring").size()).isZero();
    }

    @Test
    void unknownAdminPathAnswers404AndAWrongMethod405() {
        assertThat(gateway.admin("/admin/nope").statusCode()).isEqualTo(404);
        assertThat(gateway.admin("/admin/reload").statusCode()).isEqualTo(405);
    }

    private static JsonNode upstreams() {
        try {
            return json(gateway.admin("/admin/upstreams"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        return JSON.readTree(response.body());
    }
}
