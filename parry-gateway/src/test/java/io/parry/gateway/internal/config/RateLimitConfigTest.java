package io.parry.gateway.internal.config;

import static io.parry.gateway.internal.config.ConfigValidationTest.errors;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.ratelimit.LocalRateLimiter;
import io.parry.ratelimit.RateLimit;
import io.parry.ratelimit.redis.FailurePolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code rateLimit} of routes and {@code defaults}, and {@code redis}: read into values, or one sentence per mistake. */
class RateLimitConfigTest {

    private static GatewayConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "gw.yaml", Map.of());
    }

    @Test
    void readsALimitWithItsDefaults() {
        GatewayConfig config = parse(
                """
                routes:
                  - name: hello
                    match: { path: /hello }
                    rateLimit: { rate: 100 }
                    respond: {}
                """);
        assertThat(config.routes().get(0).rateLimit())
                .isEqualTo(new RateLimitConfig(
                        RateLimit.perSecond(100),
                        List.of("client_address"),
                        false,
                        Duration.ofMillis(50),
                        FailurePolicy.OPEN,
                        1,
                        LocalRateLimiter.DEFAULT_MAX_KEYS));
    }

    @Test
    void readsEverySetting() {
        GatewayConfig config = parse(
                """
                redis: { uri: "redis://127.0.0.1:6379/2" }
                routes:
                  - name: api
                    match: { prefix: /api }
                    rateLimit:
                      rate: 10
                      period: 1m
                      burst: 20
                      key: [client_address, "header:X-Api-Key"]
                      store: redis
                      timeout: 20ms
                      onFailure: closed
                      batch: 5
                    respond: {}
                """);
        assertThat(config.redis()).isEqualTo(new RedisConfig("redis://127.0.0.1:6379/2"));
        RateLimitConfig limit = config.routes().get(0).rateLimit();
        assertThat(limit.limit())
                .isEqualTo(RateLimit.builder()
                        .rate(10)
                        .period(Duration.ofMinutes(1))
                        .burst(20)
                        .build());
        assertThat(limit.key()).containsExactly("client_address", "header:X-Api-Key");
        assertThat(limit.redis()).isTrue();
        assertThat(limit.timeout()).isEqualTo(Duration.ofMillis(20));
        assertThat(limit.onFailure()).isEqualTo(FailurePolicy.CLOSED);
        assertThat(limit.batch()).isEqualTo(5);
    }

    @Test
    void givesTheDefaultToRoutesWithoutALimitButNotToThoseThatTurnItOff() {
        GatewayConfig config = parse(
                """
                defaults:
                  rateLimit: { rate: 5, key: route }
                routes:
                  - { name: a, match: { path: /a }, respond: {} }
                  - { name: b, match: { path: /b }, respond: {}, rateLimit: off }
                  - { name: c, match: { path: /c }, respond: {}, rateLimit: { rate: 7 } }
                """);
        assertThat(config.routes().get(0).rateLimit().limit()).isEqualTo(RateLimit.perSecond(5));
        assertThat(config.routes().get(0).rateLimit().key()).containsExactly("route");
        assertThat(config.routes().get(1).rateLimit()).isNull();
        assertThat(config.routes().get(2).rateLimit().limit()).isEqualTo(RateLimit.perSecond(7));
    }

    @Test
    void theDemoLimitsHelloToAHundredRequestsASecondPerClientAddress() {
        GatewayConfig demo =
                ConfigLoader.parse(ConfigLoader.demoYaml(), "demo.yaml", Map.of("DEMO_SERVICE_PORT", "9000"));
        RouteConfig hello = demo.routes().stream()
                .filter(route -> route.name().equals("hello"))
                .findFirst()
                .orElseThrow();
        assertThat(hello.rateLimit().limit())
                .isEqualTo(RateLimit.builder()
                        .rate(100)
                        .period(Duration.ofSeconds(1))
                        .burst(100)
                        .build());
        assertThat(hello.rateLimit().key()).containsExactly("client_address");
        assertThat(hello.rateLimit().redis()).isFalse();
    }

    @Test
    void reportsEachMistakeAtItsLine() {
        assertThat(
                        errors(
                                """
                routes:
                  - name: a
                    match: { path: /a }
                    respond: {}
                    rateLimit: { rate: 0, key: client_adress, store: redis, onFailure: maybe, perod: 1s }
                """))
                .containsExactly(
                        "gw.yaml:5:24: 'rate' must be an integer of at least 1, got '0'",
                        "gw.yaml:5:32: 'client_adress' in 'key' is not a key (expected client_address, route,"
                                + " header:<name> or claim:<name>, or a list of them), did you mean 'client_address'?",
                        "gw.yaml:5:54: route 'a' rateLimit has store: redis, but the file has no top-level 'redis'"
                                + " (expected redis: { uri: redis://host:6379 })",
                        "gw.yaml:5:72: 'onFailure' must be open (let requests pass) or closed (answer 503), got 'maybe'",
                        "gw.yaml:5:79: unknown key 'perod' in route 'a' rateLimit, did you mean 'period'? (expected one"
                                + " of: rate, period, burst, key, store, timeout, onFailure, batch, maxKeys)");
    }

    @Test
    void reportsABatchLargerThanTheBurst() {
        assertThat(
                        errors(
                                """
                redis: { uri: "redis://127.0.0.1:6379" }
                defaults:
                  rateLimit: { rate: 10, burst: 5, store: redis, batch: 6 }
                """))
                .containsExactly("gw.yaml:3:57: 'batch' must be at most the burst, 5, got 6");
    }

    @Test
    void reportsARedisLimitFinerThanRedisClock() {
        assertThat(
                        errors(
                                """
                redis: { uri: "redis://127.0.0.1:6379" }
                defaults:
                  rateLimit: { rate: 2000000, store: redis }
                """))
                .containsExactly(
                        "gw.yaml:3:22: a rateLimit with store: redis grants at most one token per microsecond"
                                + " (Redis's clock counts microseconds), got RateLimit{rate=2000000, period=PT1S, burst=2000000}");
    }

    @Test
    void reportsALimitWithoutARateAndABadRedisUri() {
        assertThat(
                        errors(
                                """
                redis: { uri: "localhost:6379" }
                defaults:
                  rateLimit: { burst: 5 }
                """))
                .containsExactly(
                        "gw.yaml:1:15: 'uri' must be a Redis URI such as redis://127.0.0.1:6379, got 'localhost:6379'",
                        "gw.yaml:3:14: 'defaults' rateLimit has no 'rate' (expected the requests allowed per period,"
                                + " such as 100)");
    }
}
