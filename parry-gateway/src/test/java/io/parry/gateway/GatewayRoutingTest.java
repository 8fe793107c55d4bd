package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Routing by every match kind and every action, through a real gateway to real upstreams. */
class GatewayRoutingTest {
    @RegisterExtension
    static final ServerExtension alpha = ServerExtension.of(EchoUpstream.named("alpha"));

    @RegisterExtension
    static final ServerExtension beta = ServerExtension.of(EchoUpstream.named("beta"));

    private static final String CONFIG =
            """
            listener: { host: 127.0.0.1, port: 0 }
            admin: { host: 127.0.0.1, port: 0 }
            upstreams:
              alpha: { endpoints: ["127.0.0.1:${ALPHA_PORT}"] }
              beta: { endpoints: ["127.0.0.1:${BETA_PORT}"] }
            routes:
              - name: api
                match: { prefix: /api }
                proxy: { upstream: alpha, stripPrefix: /api }
              - name: api-v2
                match: { prefix: /api/v2 }
                proxy: { upstream: beta, replacePrefix: { prefix: /api/v2, with: /v2 } }
              - name: user
                match: { path: "/users/{id}" }
                proxy: { upstream: beta, pathTemplate: "/people/{id}" }
              - name: me
                match: { path: /users/me }
                respond: { status: 200, body: me, headers: { X-Route: me } }
              - name: writes
                match: { prefix: /orders, methods: [POST] }
                proxy: { upstream: beta }
              - name: reads
                match: { prefix: /orders, methods: [GET] }
                proxy: { upstream: alpha }
              - name: beta-site
                match: { prefix: /site, host: beta.example }
                proxy: { upstream: beta }
              - name: canary
                match: { prefix: /site, headers: { X-Canary: "1" } }
                proxy: { upstream: beta, requestHeaders: { set: { X-Routed: canary } } }
              - name: site
                match: { prefix: /site }
                proxy: { upstream: alpha }
              - name: first
                match: { prefix: /dup }
                respond: { body: first }
              - name: second
                match: { prefix: /dup }
                respond: { body: second }
              - name: old
                match: { prefix: /old }
                redirect: { location: /new, status: 308, keepPath: true }
              - name: teapot
                match: { path: /teapot }
                respond: { status: 418, body: "{\\"short\\":true}", contentType: application/json }
            """;

    @TempDir
    static Path dir;

    private static TestGateway gateway;

    @BeforeAll
    static void startGateway() {
        gateway = TestGateway.start(
                dir,
                CONFIG,
                Map.of("ALPHA_PORT", Integer.toString(alpha.port()), "BETA_PORT", Integer.toString(beta.port())));
    }

    @AfterAll
    static void stopGateway() {
        gateway.close();
    }

    @Test
    void prefixRouteProxiesWithThePrefixStripped() {
        HttpResponse<String> response = gateway.get("/api/items?x=1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).startsWith("alpha GET /items?x=1 ");
        assertThat(response.headers().firstValue("via")).hasValue("1.1 parry");
    }

    @Test
    void longerPrefixWinsAndReplacesItsPrefix() {
        assertThat(gateway.get("/api/v2/items").body()).startsWith("beta GET /v2/items ");
        assertThat(gateway.get("/api/v22").body()).startsWith("alpha GET /v22 ");
    }

    @Test
    void prefixMatchesOnlyWholeSegments() {
        assertThat(gateway.get("/apix").statusCode()).isEqualTo(404);
    }

    @Test
    void templateRouteFillsTheUpstreamPathTemplate() {
        assertThat(gateway.get("/users/42?full=1").body()).startsWith("beta GET /people/42?full=1 ");
    }

    @Test
    void exactPathBeatsATemplate() {
        HttpResponse<String> response = gateway.get("/users/me");

        assertThat(response.body()).isEqualTo("me");
        assertThat(response.headers().firstValue("x-route")).hasValue("me");
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
    }

    @Test
    void methodConditionsSelectTheRoute() {
        assertThat(gateway.get("/orders/1").body()).startsWith("alpha GET /orders/1 ");
        HttpResponse<String> post =
                gateway.send(HttpRequest.newBuilder(gateway.uri("/orders")).POST(BodyPublishers.ofString("{}")));
        assertThat(post.body()).startsWith("beta POST /orders ");
    }

    @Test
    void wrongMethodAnswers405WithAllow() {
        HttpResponse<String> response =
                gateway.send(HttpRequest.newBuilder(gateway.uri("/orders/1")).DELETE());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("allow")).hasValue("GET, HEAD, POST, OPTIONS");
        assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
    }

    @Test
    void hostConditionSelectsTheRoute() {
        try (RawConnection connection =
                RawConnection.open("127.0.0.1", gateway.gateway().port())) {
            connection.send(
                    """
                    GET /site/a HTTP/1.1
                    Host: Beta.Example:8080

                    """);
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).startsWith("beta GET /site/a host=Beta.Example:8080 ");
        }
    }

    @Test
    void headerConditionSelectsTheRouteAndItsHeaderRulesApply() {
        HttpResponse<String> canary =
                gateway.send(HttpRequest.newBuilder(gateway.uri("/site/a")).header("X-Canary", "1"));
        HttpResponse<String> other =
                gateway.send(HttpRequest.newBuilder(gateway.uri("/site/a")).header("X-Canary", "2"));

        assertThat(canary.body()).startsWith("beta GET /site/a ").endsWith(" routed=canary");
        assertThat(other.body()).startsWith("alpha GET /site/a ").endsWith(" routed=null");
    }

    @Test
    void firstDeclaredRouteWinsAmongEqualPaths() {
        assertThat(gateway.get("/dup/x").body()).isEqualTo("first");
    }

    @Test
    void unmatchedPathAnswers404Problem() {
        HttpResponse<String> response = gateway.get("/nowhere");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"detail\":\"No route matches /nowhere.\"");
    }

    @Test
    void redirectKeepsThePathAfterThePrefix() {
        HttpResponse<String> response = gateway.get("/old/a/b?c=1");

        assertThat(response.statusCode()).isEqualTo(308);
        assertThat(response.headers().firstValue("location")).hasValue("/new/a/b?c=1");
    }

    @Test
    void respondSendsItsStatusBodyAndContentType() {
        HttpResponse<String> response = gateway.get("/teapot");

        assertThat(response.statusCode()).isEqualTo(418);
        assertThat(response.body()).isEqualTo("{\"short\":true}");
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
    }
}
