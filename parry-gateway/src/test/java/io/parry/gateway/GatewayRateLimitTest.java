package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.testing.NettyLeakExtension;
import io.parry.testing.RedisProcess;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Rate limits from the file: per route and by default, kept across reloads, shared through Redis, measured. */
@ExtendWith(NettyLeakExtension.class)
class GatewayRateLimitTest {
    @TempDir
    Path dir;

    private static String config(String helloLimit) {
        return """
                listener: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0 }
                accessLog: off
                defaults:
                  rateLimit: { rate: 1, period: 1h, burst: 2 }
                routes:
                  - name: hello
                    match: { path: /hello }
                    rateLimit: %s
                    respond: { body: hello }
                  - name: other
                    match: { path: /other }
                    respond: { body: other }
                  - name: free
                    match: { path: /free }
                    rateLimit: off
                    respond: { body: free }
                """
                .formatted(helloLimit);
    }

    @Test
    void answersTooManyRequestsPastARoutesBurstWithTheDraftFields() {
        try (TestGateway gateway = TestGateway.start(dir, config("{ rate: 1, period: 1m, burst: 3 }"), Map.of())) {
            for (int i = 0; i < 3; i++) {
                assertThat(gateway.get("/hello").statusCode()).isEqualTo(200);
            }
            HttpResponse<String> refused = gateway.get("/hello");
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("60");
            assertThat(refused.headers().firstValue("RateLimit-Policy")).hasValue("\"hello\";q=3;w=180");
            assertThat(refused.headers().firstValue("RateLimit")).hasValue("\"hello\";r=0;t=180");
        }
    }

    @Test
    void givesRoutesWithoutALimitTheDefaultOneWithBucketsOfTheirOwnUnlessOff() {
        try (TestGateway gateway = TestGateway.start(dir, config("{ rate: 1, period: 1m, burst: 1 }"), Map.of())) {
            assertThat(gateway.get("/hello").statusCode()).isEqualTo(200);
            assertThat(gateway.get("/hello").statusCode()).isEqualTo(429);
            assertThat(gateway.get("/other").statusCode()).isEqualTo(200);
            assertThat(gateway.get("/other").statusCode()).isEqualTo(200);
            assertThat(gateway.get("/other").statusCode()).isEqualTo(429);
            for (int i = 0; i < 5; i++) {
                assertThat(gateway.get("/free").statusCode()).isEqualTo(200);
            }
        }
    }

    @Test
    void keepsTheBucketsOfAnUnchangedLimitAcrossAReloadAndStartsAfreshWhenItChanges() {
        try (TestGateway gateway = TestGateway.start(dir, config("{ rate: 1, period: 1m, burst: 1 }"), Map.of())) {
            assertThat(gateway.get("/hello").statusCode()).isEqualTo(200);
            assertThat(gateway.get("/hello").statusCode()).isEqualTo(429);

            gateway.writeFile(config("{ rate: 1, period: 1m, burst: 1 }").replace("body: other", "body: changed"));
            assertThat(gateway.gateway().reload().version()).isEqualTo(2);
            assertThat(gateway.get("/other").body()).isEqualTo("changed");
            assertThat(gateway.get("/hello").statusCode()).isEqualTo(429);

            gateway.writeFile(config("{ rate: 1, period: 1m, burst: 2 }"));
            assertThat(gateway.gateway().reload().version()).isEqualTo(3);
            assertThat(gateway.get("/hello").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void showsEachRoutesLimitInTheAdminApi() {
        try (TestGateway gateway = TestGateway.start(dir, config("{ rate: 1, period: 1m, burst: 1 }"), Map.of())) {
            String routes = gateway.admin("/admin/routes").body();
            assertThat(routes)
                    .contains("\"rateLimit\":{\"rate\":1,\"period\":\"60s\",\"burst\":1,\"key\":[\"client_address\"],"
                            + "\"store\":\"local\",\"maxKeys\":100000}")
                    .contains("\"rateLimit\":{\"rate\":1,\"period\":\"3600s\",\"burst\":2,");
        }
    }

    @Test
    void countsDecisionsPerRouteInTheMetrics() {
        try (TestGateway gateway = TestGateway.start(dir, config("{ rate: 1, period: 1m, burst: 1 }"), Map.of())) {
            gateway.get("/hello");
            gateway.get("/hello");
            String scrape = gateway.admin("/admin/metrics").body();
            assertThat(scrape)
                    .contains("parry_ratelimit_requests_total{outcome=\"allowed\",route=\"hello\"} 1.0")
                    .contains("parry_ratelimit_requests_total{outcome=\"limited\",route=\"hello\"} 1.0");
        }
    }

    @Test
    void sharesBucketsBetweenGatewaysThroughRedis() throws Exception {
        try (RedisProcess redis = RedisProcess.start()) {
            String yaml =
                    """
                    listener: { host: 127.0.0.1, port: 0 }
                    admin: { host: 127.0.0.1, port: 0 }
                    accessLog: off
                    redis: { uri: "${REDIS_URI}" }
                    routes:
                      - name: shared
                        match: { path: /shared }
                        rateLimit: { rate: 1, period: 1m, burst: 3, key: route, store: redis, timeout: 1s, onFailure: closed }
                        respond: { body: shared }
                    """;
            Map<String, String> env = Map.of("REDIS_URI", redis.uri());
            Path second = dir.resolve("second");
            java.nio.file.Files.createDirectories(second);
            try (TestGateway a = TestGateway.start(dir, yaml, env, false);
                    TestGateway b = TestGateway.start(second, yaml, env, false)) {
                int allowed = 0;
                for (int i = 0; i < 3; i++) {
                    allowed += a.get("/shared").statusCode() == 200 ? 1 : 0;
                    allowed += b.get("/shared").statusCode() == 200 ? 1 : 0;
                }
                assertThat(allowed).isEqualTo(3);
                // The first token comes back a minute after it was taken, less the time the calls since took.
                assertThat(b.get("/shared").headers().firstValue("Retry-After"))
                        .hasValueSatisfying(
                                seconds -> assertThat(Integer.parseInt(seconds)).isBetween(50, 60));
            }
        }
    }
}
