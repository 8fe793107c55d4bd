package io.parry.gateway.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.parry.client.ClientOptions;
import io.parry.client.ClientTimeouts;
import io.parry.client.Endpoint;
import io.parry.client.PoolOptions;
import io.parry.client.upstream.Balancing;
import io.parry.client.upstream.HealthCheck;
import io.parry.client.upstream.OutlierDetection;
import io.parry.proxy.AdaptiveConcurrencyOptions;
import io.parry.proxy.BreakerOptions;
import io.parry.proxy.ForwardingOptions;
import io.parry.proxy.HeaderRules;
import io.parry.proxy.HostRewrite;
import io.parry.proxy.PathRewrite;
import io.parry.proxy.RetryPolicy;
import io.parry.proxy.WebSocketProxyOptions;
import io.parry.server.PathNormalization;
import io.parry.server.PathNormalization.EscapedSlashAction;
import io.parry.server.PathNormalization.PathParameterAction;
import io.parry.server.RequestLimits;
import io.parry.server.ServerOptions;
import io.parry.server.ServerTimeouts;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    static final String FULL =
            """
            version: "2026-11-22.1"          # a label
            listener: { host: 0.0.0.0, port: ${PORT:8080} }
            admin: { host: 127.0.0.1, port: ${ADMIN_PORT:9901} }
            limits: { maxBodySize: 10MiB, maxHeaderSize: 16KiB, maxConnections: 10000 }
            timeouts: { headerRead: 10s, idle: 60s, request: 30s, write: 250ms }
            forwarding: { trustedProxies: [10.0.0.0/8], via: parry, xForwarded: true, forwarded: false }
            accessLog: combined
            metrics: { prometheus: false, jmx: true }
            tracing: false
            upstreams:
              todo:
                endpoints: ["127.0.0.1:${DEMO_SERVICE_PORT:9000}", { address: "10.0.0.2:80", weight: 3 }]
                balancing: weighted_round_robin
                healthCheck: { path: /health, interval: 5s, timeout: 2s, healthyThreshold: 2, unhealthyThreshold: 3 }
                outlierDetection: { consecutiveFailures: 5, ejectionTime: 30s, maxEjectionTime: 300s, maxEjectionPercent: 50 }
                breaker: { failureRateThreshold: 40, slidingWindowSize: 20, minimumCalls: 10, openDuration: 10s, halfOpenCalls: 3 }
                maxConcurrent: 1000
                adaptiveConcurrency: { initialLimit: 40, maxLimit: 500 }
                pool: { maxConnections: 256, maxPending: 1024, idleTimeout: 60s, maxLifetime: 0s, abandonedDrain: 16KiB, abandonedDrainTime: 500ms }
                timeouts: { connect: 2s, responseHeaders: 30s, bodyIdle: 30s, call: 0s }
              users:
                endpoints: [users.internal:8080]
                nameServers: [10.0.0.53, "10.0.0.54:5353", "[::1]:53", "::2"]
                breaker: off
                outlierDetection: off
            routes:
              - name: todos
                match: { prefix: /api/todos/, methods: [GET, POST], host: api.example.com, headers: { X-Env: prod } }
                proxy:
                  upstream: todo
                  stripPrefix: /api
                  host: keep
                  requestHeaders: { add: {X-A: "1"}, set: {X-B: "2"}, remove: [X-C] }
                  responseHeaders: { add: {}, set: {}, remove: [] }
                  timeouts: { responseHeaders: 5s }
                  retry: { maxAttempts: 2, retryStatuses: [503], backoff: 5ms, maxBackoff: 100ms, budgetPercent: 10, replayBufferSize: 64KiB }
              - name: user
                match: { path: "/people/{id}" }
                proxy: { upstream: users, pathTemplate: "/users/{id}", host: endpoint, retry: off }
              - name: v1
                match: { prefix: /v1 }
                proxy: { upstream: users, replacePrefix: { prefix: /v1, with: /v2 }, host: api.internal }
              - name: hello
                match: { path: /hello }
                respond: { status: 200, body: "Hello from Parry", contentType: "text/plain; charset=utf-8", headers: { Cache-Control: no-store } }
              - match: { prefix: /old }
                redirect: { location: /new, status: 301, keepPath: true }
            """;

    @Test
    void readsEverySettingOfAFullFile() {
        GatewayConfig config = ConfigLoader.parse(FULL, "gateway.yaml", Map.of("DEMO_SERVICE_PORT", "9100"));

        assertThat(config).isEqualTo(expectedFull());
    }

    @Test
    void loadsTheSameFileToEqualValues() {
        Map<String, String> env = Map.of("DEMO_SERVICE_PORT", "9100");

        assertThat(ConfigLoader.parse(FULL, "a.yaml", env)).isEqualTo(ConfigLoader.parse(FULL, "b.yaml", env));
        assertThat(ConfigLoader.parse(FULL, "a.yaml", env).upstreams().get("todo"))
                .isNotEqualTo(ConfigLoader.parse(FULL, "a.yaml", Map.of("DEMO_SERVICE_PORT", "9101"))
                        .upstreams()
                        .get("todo"));
    }

    @Test
    void fillsDefaultsForEverythingLeftOut() {
        GatewayConfig config = ConfigLoader.parse("routes: []\n", "min.yaml", Map.of());

        assertThat(config)
                .isEqualTo(new GatewayConfig(
                        "",
                        address("0.0.0.0", 8080),
                        null,
                        address("127.0.0.1", 9901),
                        ForwardingOptions.ofDefault(),
                        AccessLogKind.JSON,
                        new MetricsConfig(true, false),
                        Map.of(),
                        List.of()));
    }

    @Test
    void turnsTheAccessLogAndMetricsOff() {
        GatewayConfig config = ConfigLoader.parse("accessLog: off\nmetrics: off\n", "off.yaml", Map.of());

        assertThat(config.accessLog()).isEqualTo(AccessLogKind.OFF);
        assertThat(config.metrics()).isEqualTo(MetricsConfig.OFF);
        assertThat(config.listener().tracing()).isTrue();
        assertThat(config.metrics().enabled()).isFalse();
    }

    @Test
    void keepsTheMetricsDefaultsASectionLeavesOut() {
        GatewayConfig config = ConfigLoader.parse("metrics: { jmx: true }\n", "jmx.yaml", Map.of());

        assertThat(config.metrics()).isEqualTo(new MetricsConfig(true, true));
    }

    @Test
    void fillsUpstreamAndRouteDefaults() {
        GatewayConfig config = ConfigLoader.parse(
                """
                upstreams:
                  a: { endpoints: [127.0.0.1:1234] }
                routes:
                  - match: { prefix: / }
                    proxy: { upstream: a }
                  - match: { path: /x }
                    respond: {}
                  - match: { path: /y }
                    redirect: { location: https://example.com/ }
                """,
                "defaults.yaml",
                Map.of());

        assertThat(config.upstreams().get("a"))
                .isEqualTo(new UpstreamConfig(
                        "a",
                        List.of(Endpoint.of("127.0.0.1", 1234)),
                        Balancing.ROUND_ROBIN,
                        null,
                        OutlierDetection.ofDefault(),
                        BreakerOptions.ofDefault(),
                        0,
                        null,
                        ClientOptions.ofDefault()));
        assertThat(config.routes())
                .extracting(RouteConfig::name, RouteConfig::action)
                .containsExactly(
                        tuple(
                                "route-1",
                                new ProxyAction(
                                        "a",
                                        PathRewrite.none(),
                                        HostRewrite.keep(),
                                        HeaderRules.none(),
                                        HeaderRules.none(),
                                        TimeoutOverrides.NONE,
                                        RetryPolicy.ofDefault(),
                                        WebSocketProxyOptions.ofDefault())),
                        tuple("route-2", new RespondAction(200, "", "text/plain; charset=utf-8", Map.of())),
                        tuple("route-3", new RedirectAction("https://example.com/", 302, false)));
        assertThat(config.routes().get(0).match())
                .isEqualTo(new MatchConfig(MatchKind.PREFIX, "/", List.of(), null, Map.of()));
    }

    @Test
    void takesPortsTheFileLeavesOutFromTheEnvironment() {
        GatewayConfig config =
                ConfigLoader.parse("version: x\n", "env.yaml", Map.of("PORT", "7000", "ADMIN_PORT", "7001"));

        assertThat(config.listener()).isEqualTo(address("0.0.0.0", 7000));
        assertThat(config.admin()).isEqualTo(address("127.0.0.1", 7001));
    }

    @Test
    void readsTheListenersPathNormalization() {
        GatewayConfig config = ConfigLoader.parse(
                "listener:\n  pathNormalization: { escapedSlashes: unescape_and_redirect, pathParameters: strip }\n",
                "paths.yaml",
                Map.of());

        assertThat(config.listener().pathNormalization())
                .isEqualTo(PathNormalization.builder()
                        .escapedSlashes(EscapedSlashAction.UNESCAPE_AND_REDIRECT)
                        .pathParameters(PathParameterAction.STRIP)
                        .build());
        assertThat(ConfigLoader.parse("listener: { port: 1 }\n", "defaults.yaml", Map.of())
                        .listener()
                        .pathNormalization())
                .isEqualTo(PathNormalization.ofDefault());
    }

    @Test
    void parsesTheDemoConfiguration() {
        GatewayConfig config =
                ConfigLoader.parse(ConfigLoader.demoYaml(), "demo.yaml", Map.of("DEMO_SERVICE_PORT", "41234"));

        assertThat(config.listener()).isEqualTo(address("0.0.0.0", 8080));
        assertThat(config.admin()).isEqualTo(address("127.0.0.1", 9901));
        assertThat(config.upstreams().get("todo").endpoints()).containsExactly(Endpoint.of("127.0.0.1", 41234));
        assertThat(config.upstreams().get("todo").breaker()).isEqualTo(BreakerOptions.disabled());
        assertThat(config.routes())
                .extracting(route -> route.match().path())
                .containsExactly("/api/todos", "/todos", "/ws/echo", "/sse/ticks", "/hello", "/api/private");
        assertThat(((ProxyAction) config.routes().get(2).action()).webSocket().maxMessageSize())
                .isEqualTo(16 << 20);
        assertThat(config.routes().get(4).action())
                .isEqualTo(new RespondAction(200, "Hello from Parry\n", "text/plain; charset=utf-8", Map.of()));
    }

    @Test
    void demoConfigurationNeedsTheTodoPort() {
        assertThatThrownBy(() -> ConfigLoader.parse(ConfigLoader.demoYaml(), "demo.yaml", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("environment variable 'DEMO_SERVICE_PORT' is not set");
    }

    @Test
    void loadsAFileAndNamesItInErrors(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, "routes: 3\n");

        assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage(
                        "1 error in the configuration:\n" + file + ":1:9: 'routes' must be a list of routes, got '3'");
    }

    @Test
    void reportsAFileThatCannotBeRead(@TempDir Path dir) {
        assertThatThrownBy(() -> ConfigLoader.load(dir.resolve("missing.yaml"), Map.of()))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot read configuration file " + dir.resolve("missing.yaml") + ": no such file");
    }

    @Test
    void reportsAFileThatIsNotUtf8(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("latin1.yaml"), new byte[] {'v', ':', ' ', (byte) 0xE9, '\n'});

        assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot read configuration file " + file + ": it is not UTF-8 text");
    }

    @Test
    void ignoresAByteOrderMark(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("bom.yaml"), "\uFEFFversion: v1\n");

        assertThat(ConfigLoader.load(file, Map.of()).version()).isEqualTo("v1");
    }

    private static GatewayConfig expectedFull() {
        Map<String, UpstreamConfig> upstreams = new LinkedHashMap<>();
        upstreams.put(
                "todo",
                new UpstreamConfig(
                        "todo",
                        List.of(
                                Endpoint.of("127.0.0.1", 9100),
                                Endpoint.of("10.0.0.2", 80).withWeight(3)),
                        Balancing.WEIGHTED_ROUND_ROBIN,
                        HealthCheck.builder("/health")
                                .interval(Duration.ofSeconds(5))
                                .timeout(Duration.ofSeconds(2))
                                .healthyThreshold(2)
                                .unhealthyThreshold(3)
                                .build(),
                        OutlierDetection.builder()
                                .consecutiveFailures(5)
                                .ejectionTime(Duration.ofSeconds(30))
                                .maxEjectionTime(Duration.ofSeconds(300))
                                .maxEjectionPercent(50)
                                .build(),
                        BreakerOptions.builder()
                                .failureRateThreshold(40)
                                .slidingWindowSize(20)
                                .minimumCalls(10)
                                .openDuration(Duration.ofSeconds(10))
                                .halfOpenCalls(3)
                                .build(),
                        1000,
                        AdaptiveConcurrencyOptions.builder()
                                .initialLimit(40)
                                .maxLimit(500)
                                .build(),
                        ClientOptions.builder()
                                .pool(PoolOptions.builder()
                                        .maxConnections(256)
                                        .maxPending(1024)
                                        .idleTimeout(Duration.ofSeconds(60))
                                        .maxLifetime(Duration.ZERO)
                                        .abandonedDrain(16 * 1024)
                                        .abandonedDrainTime(Duration.ofMillis(500))
                                        .build())
                                .timeouts(ClientTimeouts.builder()
                                        .connect(Duration.ofSeconds(2))
                                        .responseHeaders(Duration.ofSeconds(30))
                                        .bodyIdle(Duration.ofSeconds(30))
                                        .call(Duration.ZERO)
                                        .build())
                                .build()));
        upstreams.put(
                "users",
                new UpstreamConfig(
                        "users",
                        List.of(Endpoint.of("users.internal", 8080)),
                        Balancing.ROUND_ROBIN,
                        null,
                        OutlierDetection.disabled(),
                        BreakerOptions.disabled(),
                        0,
                        null,
                        ClientOptions.builder()
                                .nameServers(List.of(
                                        new InetSocketAddress("10.0.0.53", 53),
                                        new InetSocketAddress("10.0.0.54", 5353),
                                        new InetSocketAddress("::1", 53),
                                        new InetSocketAddress("::2", 53)))
                                .build()));
        List<RouteConfig> routes = List.of(
                new RouteConfig(
                        "todos",
                        new MatchConfig(
                                MatchKind.PREFIX,
                                "/api/todos",
                                List.of("GET", "POST"),
                                "api.example.com",
                                Map.of("X-Env", "prod")),
                        new ProxyAction(
                                "todo",
                                PathRewrite.stripPrefix("/api"),
                                HostRewrite.keep(),
                                HeaderRules.builder()
                                        .remove("X-C")
                                        .set("X-B", "2")
                                        .add("X-A", "1")
                                        .build(),
                                HeaderRules.none(),
                                new TimeoutOverrides(null, Duration.ofSeconds(5), null, null),
                                RetryPolicy.builder()
                                        .maxAttempts(2)
                                        .retryStatuses(Set.of(503))
                                        .backoff(Duration.ofMillis(5))
                                        .maxBackoff(Duration.ofMillis(100))
                                        .budgetPercent(10)
                                        .replayBufferSize(65536)
                                        .build(),
                                WebSocketProxyOptions.ofDefault())),
                new RouteConfig(
                        "user",
                        new MatchConfig(MatchKind.TEMPLATE, "/people/{id}", List.of(), null, Map.of()),
                        new ProxyAction(
                                "users",
                                PathRewrite.template("/users/{id}"),
                                HostRewrite.endpoint(),
                                HeaderRules.none(),
                                HeaderRules.none(),
                                TimeoutOverrides.NONE,
                                RetryPolicy.none(),
                                WebSocketProxyOptions.ofDefault())),
                new RouteConfig(
                        "v1",
                        new MatchConfig(MatchKind.PREFIX, "/v1", List.of(), null, Map.of()),
                        new ProxyAction(
                                "users",
                                PathRewrite.replacePrefix("/v1", "/v2"),
                                HostRewrite.fixed("api.internal"),
                                HeaderRules.none(),
                                HeaderRules.none(),
                                TimeoutOverrides.NONE,
                                RetryPolicy.ofDefault(),
                                WebSocketProxyOptions.ofDefault())),
                new RouteConfig(
                        "hello",
                        new MatchConfig(MatchKind.EXACT, "/hello", List.of(), null, Map.of()),
                        new RespondAction(
                                200,
                                "Hello from Parry",
                                "text/plain; charset=utf-8",
                                Map.of("Cache-Control", "no-store"))),
                new RouteConfig(
                        "route-5",
                        new MatchConfig(MatchKind.PREFIX, "/old", List.of(), null, Map.of()),
                        new RedirectAction("/new", 301, true)));
        return new GatewayConfig(
                "2026-11-22.1",
                address("0.0.0.0", 8080).toBuilder()
                        .limits(RequestLimits.builder()
                                .maxBodySize(10 * 1024 * 1024)
                                .maxHeaderSize(16 * 1024)
                                .maxConnections(10_000)
                                .build())
                        .timeouts(ServerTimeouts.builder()
                                .headerRead(Duration.ofSeconds(10))
                                .idle(Duration.ofSeconds(60))
                                .request(Duration.ofSeconds(30))
                                .write(Duration.ofMillis(250))
                                .build())
                        .tracing(false)
                        .build(),
                null,
                address("127.0.0.1", 9901),
                ForwardingOptions.builder()
                        .trustedProxies(List.of("10.0.0.0/8"))
                        .via("parry")
                        .xForwarded(true)
                        .forwarded(false)
                        .build(),
                AccessLogKind.COMBINED,
                new MetricsConfig(false, true),
                upstreams,
                routes);
    }

    private static ServerOptions address(String host, int port) {
        return ServerOptions.builder().host(host).port(port).build();
    }
}
