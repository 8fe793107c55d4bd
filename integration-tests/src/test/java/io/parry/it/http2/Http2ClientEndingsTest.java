package io.parry.it.http2;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http2.Http2Headers;
import io.parry.gateway.Gateway;
import io.parry.http.HttpResponse;
import io.parry.testing.ServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/2 clients that reset their streams mid-body, far more often than the default breaker's
 * threshold, leave the gateway's upstream in rotation: a reset stream is the client's doing.
 */
class Http2ClientEndingsTest {
    private static final int ENDINGS = 50;
    private static final int CANCEL = 0x8;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient ADMIN = HttpClient.newHttpClient();

    /** Reads the whole body before answering, so every reset body fails the upstream call, not its response. */
    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of((ctx, request) ->
            request.body().aggregate(1 << 20).thenApply(body -> HttpResponse.ofText("got " + body.length())));

    @TempDir
    Path dir;

    @Test
    void keepsTheUpstreamInRotationAfterFiftyStreamsResetMidBody() throws Exception {
        Path file = Files.writeString(
                dir.resolve("gateway.yaml"),
                """
                listener: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0 }
                accessLog: off
                upstreams:
                  app: { endpoints: ["127.0.0.1:%d"] }
                routes:
                  - { name: all, match: { prefix: / }, proxy: { upstream: app } }
                """
                        .formatted(upstream.port()));
        Gateway gateway = Gateway.builder(file).watchFile(false).start();
        try {
            for (int i = 0; i < ENDINGS; i++) {
                try (RawHttp2Connection client = RawHttp2Connection.open(gateway.port())) {
                    Http2Headers post = RawHttp2Connection.request("POST", "/upload");
                    client.headers(1, post, false);
                    client.data(1, "the first half", false);
                    client.rst(1, CANCEL);
                }
            }
            awaitNoCallInFlight(gateway);

            JsonNode endpoint = endpoint(gateway);
            assertThat(endpoint.get("breaker").asText()).isEqualTo("CLOSED");
            assertThat(endpoint.get("healthy").asBoolean()).isTrue();
            assertThat(endpoint.get("consecutiveFailures").asInt()).isZero();
            // The resets reached the proxy's upstream calls and were counted as the client's endings.
            assertThat(admin(gateway, "/admin/metrics"))
                    .containsPattern("parry_proxy_client_endings_total\\{cause=\"[A-Z_]+\",upstream=\"app\"} [1-9]");
            try (RawHttp2Connection user = RawHttp2Connection.open(gateway.port())) {
                user.headers(1, RawHttp2Connection.get("/after"), true);
                assertThat(user.response(1).head().status().toString()).isEqualTo("200");
            }
        } finally {
            gateway.stop(Duration.ofSeconds(1));
        }
    }

    private static void awaitNoCallInFlight(Gateway gateway) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (endpoint(gateway).get("inFlight").asInt() != 0) {
            assertThat(System.nanoTime()).as("calls still in flight after 10 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static JsonNode endpoint(Gateway gateway) throws Exception {
        return JSON.readTree(admin(gateway, "/admin/upstreams")).at("/upstreams/0/endpoints/0");
    }

    private static String admin(Gateway gateway, String path) throws Exception {
        return ADMIN.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.adminPort() + path))
                                .build(),
                        BodyHandlers.ofString())
                .body();
    }
}
