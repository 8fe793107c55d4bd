package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.http.HttpStatus;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Routes chosen by query parameters, cookies and the client's address, and a route split across two groups. */
class GatewayMatchingTest {
    @RegisterExtension
    static final ServerExtension stable = ServerExtension.of(EchoUpstream.named("stable"));

    @RegisterExtension
    static final ServerExtension canary = ServerExtension.of(EchoUpstream.named("canary"));

    /** A canary whose health check fails: every endpoint of its group goes out of rotation. */
    @RegisterExtension
    static final ServerExtension sick = ServerExtension.of((ctx, request) -> request.path()
                    .equals("/health")
            ? io.parry.http.HttpResponse.of(HttpStatus.SERVICE_UNAVAILABLE).toStage()
            : EchoUpstream.named("sick").handle(ctx, request));

    private static final String CONFIG =
            """
            listener: { host: 127.0.0.1, port: 0 }
            admin: { host: 127.0.0.1, port: 0 }
            forwarding: { trustedProxies: [127.0.0.1] }
            upstreams:
              stable: { endpoints: ["127.0.0.1:${STABLE_PORT}"] }
              canary: { endpoints: ["127.0.0.1:${CANARY_PORT}"] }
              sick:
                endpoints: ["127.0.0.1:${SICK_PORT}"]
                healthCheck: { path: /health, interval: 50ms, unhealthyThreshold: 1 }
            routes:
              - name: beta-query
                match: { prefix: /app, query: { beta: { present: true }, v: "2" } }
                proxy: { upstream: canary }
              - name: beta-cookie
                match: { prefix: /app, cookies: { channel: beta } }
                proxy: { upstream: canary }
              - name: office
                match: { prefix: /app, clientAddress: [10.0.0.0/8, "2001:db8::/32"] }
                proxy: { upstream: canary, requestHeaders: { set: { X-Routed: office } } }
              - name: app
                match: { prefix: /app }
                proxy: { upstream: stable }
              - name: release
                match: { prefix: /release }
                proxy:
                  split: [ { upstream: stable, weight: 90 }, { upstream: canary, weight: 10 } ]
              - name: sticky-release
                match: { prefix: /sticky }
                proxy:
                  split: [ { upstream: stable, weight: 50 }, { upstream: canary, weight: 50 } ]
                  sticky: "cookie:user"
              - name: sick-release
                match: { prefix: /sick }
                proxy:
                  split: [ { upstream: stable, weight: 50 }, { upstream: sick, weight: 50 } ]
                  sticky: "cookie:user"
            """;

    @TempDir
    static Path dir;

    private static TestGateway gateway;

    @BeforeAll
    static void startGateway() {
        gateway = TestGateway.start(
                dir,
                CONFIG,
                Map.of(
                        "STABLE_PORT",
                        Integer.toString(stable.port()),
                        "CANARY_PORT",
                        Integer.toString(canary.port()),
                        "SICK_PORT",
                        Integer.toString(sick.port())));
    }

    @AfterAll
    static void stopGateway() {
        gateway.close();
    }

    @Test
    void choosesARouteByAQueryParameterThatIsPresentAndOneWithAValue() {
        assertThat(upstreamOf(gateway.get("/app/x?v=2&beta"))).isEqualTo("canary");
        assertThat(upstreamOf(gateway.get("/app/x?beta=yes&v=2"))).isEqualTo("canary");
        assertThat(upstreamOf(gateway.get("/app/x?beta&v=3"))).isEqualTo("stable");
        assertThat(upstreamOf(gateway.get("/app/x?v=2"))).isEqualTo("stable");
    }

    @Test
    void choosesARouteByTheExactValueOfACookie() {
        assertThat(upstreamOf(withHeader("/app/x", "Cookie", "theme=dark; channel=beta")))
                .isEqualTo("canary");
        assertThat(upstreamOf(withHeader("/app/x", "Cookie", "channel=betas"))).isEqualTo("stable");
    }

    @Test
    void choosesARouteByTheClientAddressBehindATrustedProxy() {
        HttpResponse<String> office = withHeader("/app/x", "X-Forwarded-For", "10.1.2.3");
        assertThat(upstreamOf(office)).isEqualTo("canary");
        assertThat(office.body()).contains("routed=office");
        assertThat(upstreamOf(withHeader("/app/x", "X-Forwarded-For", "192.0.2.9")))
                .isEqualTo("stable");
        assertThat(upstreamOf(gateway.get("/app/x"))).isEqualTo("stable");
    }

    @Test
    void splitsTwoHundredRequestsExactlyNinetyToTen() {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            counts.merge(upstreamOf(gateway.get("/release/x")), 1, Integer::sum);
        }

        assertThat(counts).isEqualTo(Map.of("stable", 180, "canary", 20));
    }

    @Test
    void keepsEachUserOnOneSideOfAStickySplit() {
        Map<String, Integer> users = new HashMap<>();
        for (int user = 0; user < 100; user++) {
            Set<String> sides = new HashSet<>();
            for (int call = 0; call < 3; call++) {
                sides.add(upstreamOf(withHeader("/sticky/x", "Cookie", "user=u" + user)));
            }
            assertThat(sides).as("user u" + user).hasSize(1);
            users.merge(sides.iterator().next(), 1, Integer::sum);
        }

        assertThat(users.get("canary")).isBetween(30, 70);
    }

    @Test
    void sendsStickyUsersOfASideWithNoEndpointInRotationToTheOtherSide() {
        Await.until("every user of the split on stable while sick fails its health check", () -> IntStream.range(0, 20)
                .allMatch(user -> {
                    HttpResponse<String> response = withHeader("/sick/x", "Cookie", "user=u" + user);
                    return response.statusCode() == 200
                            && response.headers()
                                    .firstValue("x-upstream")
                                    .orElseThrow()
                                    .equals("stable");
                }));
    }

    @Test
    void adminRoutesShowsTheNewConditionsAndTheSplit() throws Exception {
        JsonNode routes = new ObjectMapper()
                .readTree(gateway.admin("/admin/routes").body())
                .get("routes");

        assertThat(routes.get(0).get("match").toString())
                .isEqualTo(
                        "{\"prefix\":\"/app\",\"kind\":\"prefix\",\"query\":{\"beta\":{\"present\":true},\"v\":\"2\"}}");
        assertThat(routes.get(1).get("match").get("cookies").toString()).isEqualTo("{\"channel\":\"beta\"}");
        assertThat(routes.get(2).get("match").get("clientAddress").toString())
                .isEqualTo("[\"10.0.0.0/8\",\"2001:db8::/32\"]");
        assertThat(routes.get(4).get("action").get("proxy").get("split").toString())
                .isEqualTo("[{\"upstream\":\"stable\",\"weight\":90},{\"upstream\":\"canary\",\"weight\":10}]");
        assertThat(routes.get(5).get("action").get("proxy").get("sticky").asText())
                .isEqualTo("cookie:user");
    }

    private static HttpResponse<String> withHeader(String path, String name, String value) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri(path)).header(name, value));
    }

    private static String upstreamOf(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.headers().firstValue("x-upstream").orElseThrow();
    }
}
