package io.parry.gateway.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientOptions;
import io.parry.client.ClientTimeouts;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpHeaders;
import io.parry.proxy.HeaderRules;
import io.parry.proxy.HostRewrite;
import io.parry.proxy.WebSocketProxyOptions;
import io.parry.server.RequestLimits;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The configuration holds the option values the server, client and proxy take, ready to use. */
class ConfigConversionTest {
    private static final GatewayConfig CONFIG =
            ConfigLoader.parse(ConfigLoaderTest.FULL, "gateway.yaml", Map.of("DEMO_SERVICE_PORT", "9100"));

    @Test
    void makesServerOptions() {
        assertThat(CONFIG.listener().limits().maxBodySize()).isEqualTo(10L * 1024 * 1024);
        assertThat(CONFIG.listener().limits().maxHeaderSize()).isEqualTo(16 * 1024);
        assertThat(CONFIG.listener().limits().maxHeaderCount())
                .isEqualTo(RequestLimits.ofDefault().maxHeaderCount());
        assertThat(CONFIG.listener().timeouts().write()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void makesForwardingOptions() {
        assertThat(CONFIG.forwarding().trustedProxies()).containsExactly("10.0.0.0/8");
        assertThat(CONFIG.forwarding().forwarded()).isFalse();
    }

    @Test
    void makesAnUpstreamAndItsClientOptions() {
        UpstreamConfig todo = CONFIG.upstreams().get("todo");
        try (Upstream upstream = todo.toUpstream()) {
            assertThat(upstream.name()).isEqualTo("todo");
            assertThat(upstream.endpoints()).isEqualTo(todo.endpoints());
            assertThat(upstream.balancing()).isEqualTo(todo.balancing());
            assertThat(upstream.healthCheck())
                    .hasValueSatisfying(check -> assertThat(check.path()).isEqualTo("/health"));
            assertThat(upstream.outlierDetection().enabled()).isTrue();
        }
        ClientOptions client = todo.client();
        assertThat(client.pool().maxConnections()).isEqualTo(256);
        assertThat(client.timeouts().connect()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void turnsOffBreakersAndOutlierDetection() {
        UpstreamConfig users = CONFIG.upstreams().get("users");

        assertThat(users.breaker().enabled()).isFalse();
        assertThat(users.outlierDetection().enabled()).isFalse();
        assertThat(CONFIG.upstreams().get("todo").breaker().failureRateThreshold())
                .isEqualTo(40);
    }

    @Test
    void overridesOnlyTheTimeoutsARouteDeclares() {
        ProxyAction todos = (ProxyAction) CONFIG.routes().get(0).action();
        ClientTimeouts merged =
                todos.timeouts().applyTo(CONFIG.upstreams().get("todo").client().timeouts());

        assertThat(merged)
                .isEqualTo(ClientTimeouts.builder()
                        .connect(Duration.ofSeconds(2))
                        .responseHeaders(Duration.ofSeconds(5))
                        .bodyIdle(Duration.ofSeconds(30))
                        .call(Duration.ZERO)
                        .build());
        assertThat(todos.timeouts().isEmpty()).isFalse();
        assertThat(TimeoutOverrides.NONE.isEmpty()).isTrue();
        assertThat(TimeoutOverrides.NONE.applyTo(ClientTimeouts.ofDefault())).isEqualTo(ClientTimeouts.ofDefault());
    }

    @Test
    void makesPathAndHostRewrites() {
        ProxyAction todos = (ProxyAction) CONFIG.routes().get(0).action();
        ProxyAction user = (ProxyAction) CONFIG.routes().get(1).action();
        ProxyAction v1 = (ProxyAction) CONFIG.routes().get(2).action();

        assertThat(todos.path().apply("/api/todos?x=1", Map.of())).isEqualTo("/todos?x=1");
        assertThat(user.path().apply("/people/7", Map.of("id", "7"))).isEqualTo("/users/7");
        assertThat(v1.path().apply("/v1/a", Map.of())).isEqualTo("/v2/a");
        assertThat(todos.host()).isSameAs(HostRewrite.keep());
        assertThat(user.host()).isSameAs(HostRewrite.endpoint());
        assertThat(v1.host()).isEqualTo(HostRewrite.fixed("api.internal"));
    }

    @Test
    void appliesHeaderRulesAsRemoveThenSetThenAdd() {
        GatewayConfig config = ConfigLoader.parse(
                """
                upstreams: { a: { endpoints: [127.0.0.1:1234] } }
                routes:
                  - match: { prefix: / }
                    proxy: { upstream: a, requestHeaders: { add: { X-A: added }, set: { X-B: set }, remove: [X-A] } }
                """,
                "rules.yaml",
                Map.of());
        HeaderRules rules = ((ProxyAction) config.routes().get(0).action()).requestHeaders();
        HttpHeaders headers = HttpHeaders.of("X-A", "old", "X-B", "old");

        HttpHeaders result = rules.apply(headers);

        assertThat(result.getAll("X-A")).containsExactly("added");
        assertThat(result.getAll("X-B")).containsExactly("set");
    }

    @Test
    void makesARetryPolicy() {
        ProxyAction todos = (ProxyAction) CONFIG.routes().get(0).action();

        ProxyAction user = (ProxyAction) CONFIG.routes().get(1).action();
        ProxyAction v1 = (ProxyAction) CONFIG.routes().get(2).action();

        assertThat(todos.retry().maxAttempts()).isEqualTo(2);
        assertThat(todos.retry().retryStatuses()).containsExactly(503);
        assertThat(todos.retry().replayBufferSize()).isEqualTo(65536);
        assertThat(user.retry().maxAttempts()).isEqualTo(1);
        assertThat(v1.retry().retryStatuses()).containsExactly(502, 503, 504);
    }

    @Test
    void makesWebSocketOptionsOrTurnsUpgradesOff() {
        GatewayConfig config = ConfigLoader.parse(
                """
                upstreams:
                  a: { endpoints: [127.0.0.1:9000] }
                routes:
                  - match: { prefix: /ws }
                    proxy:
                      upstream: a
                      webSocket: { maxFrameSize: 64KiB, maxMessageSize: 1MiB, idleTimeout: 5m, allowedOrigins: [https://app.example] }
                  - match: { prefix: /plain }
                    proxy: { upstream: a, webSocket: off }
                  - match: { prefix: / }
                    proxy: { upstream: a }
                """,
                "ws.yaml",
                Map.of());

        WebSocketProxyOptions ws = ((ProxyAction) config.routes().get(0).action()).webSocket();
        assertThat(ws)
                .isEqualTo(WebSocketProxyOptions.builder()
                        .maxFrameSize(64 * 1024)
                        .maxMessageSize(1 << 20)
                        .idleTimeout(Duration.ofMinutes(5))
                        .allowedOrigins(Set.of("https://app.example"))
                        .build());
        assertThat(((ProxyAction) config.routes().get(1).action()).webSocket().enabled())
                .isFalse();
        assertThat(((ProxyAction) config.routes().get(2).action()).webSocket())
                .isEqualTo(WebSocketProxyOptions.ofDefault());
    }
}
