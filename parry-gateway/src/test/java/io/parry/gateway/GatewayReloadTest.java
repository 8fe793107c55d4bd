package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.testing.ServerExtension;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Reloads by each trigger, a rejected reload, and requests in flight across a reload. */
class GatewayReloadTest {
    @RegisterExtension
    static final ServerExtension alpha = ServerExtension.of(EchoUpstream.named("alpha"));

    @RegisterExtension
    static final ServerExtension beta = ServerExtension.of(EchoUpstream.named("beta"));

    private static final CountDownLatch slowReceived = new CountDownLatch(1);
    private static final CompletableFuture<HttpResponse> slowAnswer = new CompletableFuture<>();

    @RegisterExtension
    static final ServerExtension slow = ServerExtension.of((ctx, request) -> {
        slowReceived.countDown();
        return slowAnswer;
    });

    @TempDir
    Path dir;

    @Test
    void reloadsWhenAnEditorReplacesTheFile() {
        try (TestGateway gateway = TestGateway.start(dir, routeTo("alpha"), ports())) {
            assertThat(gateway.get("/x").body()).startsWith("alpha ");

            gateway.replaceFile(routeTo("beta"));

            Await.until("version 2", () -> gateway.gateway().configVersion() == 2);
            assertThat(gateway.get("/x").body()).startsWith("beta ");
        }
    }

    @Test
    void reloadsWhenTheFileIsWrittenInPlace() {
        try (TestGateway gateway = TestGateway.start(dir, routeTo("alpha"), ports())) {
            gateway.writeFile(routeTo("beta"));

            Await.until("version 2", () -> gateway.gateway().configVersion() == 2);
            assertThat(gateway.get("/x").body()).startsWith("beta ");
        }
    }

    @Test
    void reloadsOnAdminPost() {
        try (TestGateway gateway = TestGateway.start(dir, routeTo("alpha"), ports(), false)) {
            gateway.writeFile(routeTo("beta"));

            var response = gateway.adminPost("/admin/reload");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("{\"applied\":true,\"version\":2}");
            assertThat(gateway.get("/x").body()).startsWith("beta ");
        }
    }

    @Test
    void reloadsThroughTheApiAndLeavesAnUnchangedFileAtItsVersion() {
        try (TestGateway gateway = TestGateway.start(dir, routeTo("alpha"), ports(), false)) {
            assertThat(gateway.gateway().reload()).isEqualTo(ReloadResult.applied(1));

            gateway.writeFile(routeTo("beta"));

            assertThat(gateway.gateway().reload()).isEqualTo(ReloadResult.applied(2));
            assertThat(gateway.gateway().configVersion()).isEqualTo(2);
        }
    }

    @Test
    void rejectsAnInvalidConfigurationAndKeepsServingTheOldOne() {
        try (TestGateway gateway = TestGateway.start(dir, routeTo("alpha"), ports(), false)) {
            gateway.writeFile(routeTo("gamma"));

            var rejected = gateway.adminPost("/admin/reload");

            assertThat(rejected.statusCode()).isEqualTo(422);
            assertThat(rejected.headers().firstValue("content-type")).hasValue("application/problem+json");
            assertThat(rejected.body())
                    .contains("\"applied\":false", "\"version\":1", "gateway.yaml:8:")
                    .contains("gamma");
            assertThat(gateway.gateway().configVersion()).isEqualTo(1);
            assertThat(gateway.get("/x").body()).startsWith("alpha ");
            assertThat(gateway.admin("/admin/routes").body()).contains("\"lastReloadError\"", "gamma");
            assertThat(gateway.admin("/admin/upstreams").body()).contains("\"lastReloadError\"");

            gateway.writeFile(routeTo("beta"));

            assertThat(gateway.adminPost("/admin/reload").statusCode()).isEqualTo(200);
            assertThat(gateway.admin("/admin/routes").body()).doesNotContain("lastReloadError");
        }
    }

    @Test
    void rejectsAFileThatIsNotYaml() {
        try (TestGateway gateway = TestGateway.start(dir, routeTo("alpha"), ports(), false)) {
            gateway.writeFile("routes: [ {");

            ReloadResult result = gateway.gateway().reload();

            assertThat(result.applied()).isFalse();
            assertThat(result.version()).isEqualTo(1);
            assertThat(result.errors()).hasSize(1);
            assertThat(gateway.get("/x").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void requestInFlightOnAReplacedUpstreamFinishesAndTheOldGroupThenCloses() throws Exception {
        try (TestGateway gateway = TestGateway.start(dir, routeTo("slow"), ports(), false)) {
            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            var inFlight = client.sendAsync(
                    HttpRequest.newBuilder(gateway.uri("/x"))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    BodyHandlers.ofString());
            assertThat(slowReceived.await(10, TimeUnit.SECONDS)).isTrue();

            gateway.writeFile(routeTo("beta"));
            assertThat(gateway.gateway().reload().version()).isEqualTo(2);

            assertThat(gateway.get("/x").body()).startsWith("beta ");
            assertThat(gateway.admin("/admin/upstreams").body()).contains("\"retiring\":[{\"name\":\"slow\"");
            slowAnswer.complete(HttpResponse.ofText("slow answer"));
            var answered = inFlight.get(10, TimeUnit.SECONDS);
            assertThat(answered.statusCode()).isEqualTo(200);
            assertThat(answered.body()).isEqualTo("slow answer");
            Await.until(
                    "the slow group closes",
                    () -> gateway.admin("/admin/upstreams").body().contains("\"retiring\":[]"));
        }
    }

    /** One route to one of the upstreams, all of which are defined (line 8 names the route's upstream). */
    private static String routeTo(String upstream) {
        return """
                listener: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0 }
                upstreams:
                  alpha: { endpoints: ["127.0.0.1:${ALPHA_PORT}"] }
                  beta: { endpoints: ["127.0.0.1:${BETA_PORT}"] }
                  %s
                routes:
                  - { name: all, match: { prefix: / }, proxy: { upstream: %s, retry: off } }
                """
                .formatted(
                        upstream.equals("slow") ? "slow: { endpoints: [\"127.0.0.1:${SLOW_PORT}\"] }" : "", upstream);
    }

    private static Map<String, String> ports() {
        return Map.of(
                "ALPHA_PORT", Integer.toString(alpha.port()),
                "BETA_PORT", Integer.toString(beta.port()),
                "SLOW_PORT", Integer.toString(slow.port()));
    }
}
