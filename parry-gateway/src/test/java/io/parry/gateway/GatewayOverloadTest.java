package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Overload shedding from the YAML: priorities, exempt routes and the admin listener, reload, metrics. */
class GatewayOverloadTest {
    private static final List<CompletableFuture<HttpResponse>> HELD = new CopyOnWriteArrayList<>();
    private static final Semaphore ENTERED = new Semaphore(0);

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of((ctx, request) -> {
        if (!request.path().equals("/slow")) {
            return HttpResponse.ofText("served " + request.path()).toStage();
        }
        CompletableFuture<HttpResponse> held = new CompletableFuture<>();
        HELD.add(held);
        ENTERED.release();
        return held;
    });

    @TempDir
    Path dir;

    @AfterEach
    void releaseHeld() {
        HELD.forEach(held -> held.complete(HttpResponse.ofText("released")));
        HELD.clear();
        ENTERED.drainPermits();
    }

    @Test
    void shedsSheddableRoutesFirstAndNeverExemptOnesOrTheAdminListener() throws Exception {
        try (TestGateway gateway =
                TestGateway.start(dir, config("overload: { maxInFlight: 2, retryAfter: 3s }\n"), env())) {
            List<CompletableFuture<java.net.http.HttpResponse<String>>> slow =
                    List.of(gateway.sendAsync("/slow"), gateway.sendAsync("/slow"));
            assertThat(ENTERED.tryAcquire(2, 10, TimeUnit.SECONDS)).isTrue();

            java.net.http.HttpResponse<String> shed = gateway.get("/reports");
            assertThat(shed.statusCode()).isEqualTo(503);
            assertThat(shed.headers().firstValue("retry-after")).contains("3");
            assertThat(shed.headers().firstValue("content-type"))
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(gateway.get("/plain").statusCode()).isEqualTo(503);
            assertThat(gateway.get("/vip").statusCode()).isEqualTo(200);
            assertThat(gateway.get("/health").statusCode()).isEqualTo(200);
            assertThat(gateway.admin("/admin/health").statusCode()).isEqualTo(200);
            try (RawConnection raw =
                    RawConnection.open("127.0.0.1", gateway.gateway().port())) {
                raw.send("POST /plain HTTP/1.1\nHost: a\nContent-Length: 1000000\n\n" + "x".repeat(100));
                RawResponse response = raw.readResponse();
                assertThat(response.status()).isEqualTo(503);
                assertThat(response.header("connection")).isEqualToIgnoringCase("close");
            }
            assertThat(gateway.admin("/admin/metrics").body())
                    .contains("parry_server_overload_shed_total{reason=\"IN_FLIGHT\"} 3.0");

            HELD.forEach(held -> held.complete(HttpResponse.ofText("released")));
            for (CompletableFuture<java.net.http.HttpResponse<String>> response : slow) {
                assertThat(response.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            }
            Await.until(
                    "the slow requests are out", () -> gateway.get("/reports").statusCode() == 200);
        }
    }

    @Test
    void aReloadTurnsSheddingOnAndOff() {
        try (TestGateway gateway = TestGateway.start(dir, config(""), env(), false)) {
            assertThat(gateway.get("/plain").statusCode()).isEqualTo(200);

            gateway.writeFile(config("overload: { directMemory: 1B }\n"));
            assertThat(gateway.gateway().reload().version()).isEqualTo(2);
            Await.until(
                    "a tiny direct memory budget sheds",
                    () -> gateway.get("/vip").statusCode() == 503);
            assertThat(gateway.get("/health").statusCode()).isEqualTo(200);
            assertThat(gateway.admin("/admin/health").statusCode()).isEqualTo(200);

            gateway.writeFile(config(""));
            assertThat(gateway.gateway().reload().version()).isEqualTo(3);
            assertThat(gateway.get("/reports").statusCode()).isEqualTo(200);
        }
    }

    private static String config(String overload) {
        return overload
                + """
                listener: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0 }
                upstreams:
                  app: { endpoints: ["127.0.0.1:${APP_PORT}"] }
                routes:
                  - { name: slow, match: { path: /slow }, proxy: { upstream: app } }
                  - { name: reports, match: { path: /reports }, priority: sheddable, proxy: { upstream: app } }
                  - { name: plain, match: { path: /plain }, proxy: { upstream: app } }
                  - { name: vip, match: { path: /vip }, priority: critical, proxy: { upstream: app } }
                  - { name: health, match: { path: /health }, priority: exempt, respond: { body: up } }
                """;
    }

    private static Map<String, String> env() {
        return Map.of("APP_PORT", Integer.toString(upstream.port()));
    }
}
