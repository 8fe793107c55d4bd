package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.http.HttpResponse;
import io.parry.testing.RawConnection;
import io.parry.testing.ServerExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway as users run it, one route proxying everything to one upstream with the default breaker:
 * one anonymous client's broken request bodies leave the upstream in rotation for everyone else.
 */
class GatewayClientEndingsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ENDINGS = 50;

    /** Reads the whole body before answering, so every broken body fails the call, not its response. */
    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of((ctx, request) ->
            request.body().aggregate(1 << 20).thenApply(body -> HttpResponse.ofText("got " + body.length())));

    @TempDir
    Path dir;

    @Test
    void keepsTheUpstreamInRotationAfterFiftyMalformedChunkedBodies() throws Exception {
        try (TestGateway gateway = TestGateway.start(
                dir,
                """
                listener: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0 }
                upstreams:
                  app: { endpoints: ["127.0.0.1:${UPSTREAM_PORT}"] }
                routes:
                  - { name: all, match: { prefix: / }, proxy: { upstream: app } }
                """,
                Map.of("UPSTREAM_PORT", Integer.toString(upstream.port())),
                false)) {
            for (int i = 0; i < ENDINGS; i++) {
                try (RawConnection connection =
                        RawConnection.open("127.0.0.1", gateway.gateway().port())) {
                    connection.send("POST /upload HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n5\nhello\nzz\n");
                    assertThat(connection.readResponse().status()).isEqualTo(400);
                }
            }
            Await.until(
                    "no request in flight",
                    () -> endpoint(gateway).get("inFlight").asInt() == 0);

            JsonNode endpoint = endpoint(gateway);
            assertThat(endpoint.get("breaker").asText()).isEqualTo("CLOSED");
            assertThat(endpoint.get("healthy").asBoolean()).isTrue();
            assertThat(endpoint.get("consecutiveFailures").asInt()).isZero();
            assertThat(gateway.get("/after").statusCode()).isEqualTo(200);
            Await.until("the client endings are counted", () -> gateway.admin("/admin/metrics")
                    .body()
                    .contains("parry_proxy_client_endings_total{cause=\"MALFORMED_BODY\",upstream=\"app\"} 50.0"));
        }
    }

    private static JsonNode endpoint(TestGateway gateway) {
        try {
            return JSON.readTree(gateway.admin("/admin/upstreams").body()).at("/upstreams/0/endpoints/0");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
