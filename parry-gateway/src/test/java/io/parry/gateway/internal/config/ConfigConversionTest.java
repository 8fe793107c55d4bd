package io.parry.gateway.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientOptions;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpHeaders;
import io.parry.proxy.HostRewrite;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The configuration values turn into the option objects the server, client and proxy take. */
class ConfigConversionTest {
    private static final GatewayConfig CONFIG =
            ConfigLoader.parse(ConfigLoaderTest.FULL, "gateway.yaml", Map.of("DEMO_SERVICE_PORT", "9100"));

    @Test
    void makesServerOptions() {
        assertThat(CONFIG.limits().toRequestLimits().maxBodySize()).isEqualTo(10L * 1024 * 1024);
        assertThat(CONFIG.limits().toRequestLimits().maxHeaderSize()).isEqualTo(16 * 1024);
        assertThat(CONFIG.timeouts().toServerTimeouts().write()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void makesForwardingOptions() {
        assertThat(CONFIG.forwarding().toOptions().trustedProxies()).containsExactly("10.0.0.0/8");
        assertThat(CONFIG.forwarding().toOptions().forwarded()).isFalse();
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
        ClientOptions client = todo.toClientOptions();
        assertThat(client.pool().maxConnections()).isEqualTo(256);
        assertThat(client.timeouts().connect()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void turnsOffBreakersAndOutlierDetection() {
        UpstreamConfig users = CONFIG.upstreams().get("users");

        assertThat(users.breaker().toOptions().enabled()).isFalse();
        assertThat(users.outlierDetection().toOptions().enabled()).isFalse();
        assertThat(CONFIG.upstreams().get("todo").breaker().toOptions().failureRateThreshold())
                .isEqualTo(40);
    }

    @Test
    void overridesOnlyTheTimeoutsARouteDeclares() {
        ProxyAction todos = (ProxyAction) CONFIG.routes().get(0).action();
        ClientTimeoutsConfig merged =
                todos.timeouts().orElse(CONFIG.upstreams().get("todo").timeouts());

        assertThat(merged)
                .isEqualTo(new ClientTimeoutsConfig(
                        Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ZERO));
        assertThat(todos.timeouts().isEmpty()).isFalse();
        assertThat(ClientTimeoutsConfig.NONE.isEmpty()).isTrue();
        assertThat(ClientTimeoutsConfig.NONE.toOptions().connect()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void makesPathAndHostRewrites() {
        ProxyAction todos = (ProxyAction) CONFIG.routes().get(0).action();
        ProxyAction user = (ProxyAction) CONFIG.routes().get(1).action();
        ProxyAction v1 = (ProxyAction) CONFIG.routes().get(2).action();

        assertThat(todos.path().toPathRewrite().apply("/api/todos?x=1", Map.of()))
                .isEqualTo("/todos?x=1");
        assertThat(user.path().toPathRewrite().apply("/people/7", Map.of("id", "7")))
                .isEqualTo("/users/7");
        assertThat(v1.path().toPathRewrite().apply("/v1/a", Map.of())).isEqualTo("/v2/a");
        assertThat(todos.toHostRewrite()).isSameAs(HostRewrite.keep());
        assertThat(user.toHostRewrite()).isSameAs(HostRewrite.endpoint());
        assertThat(v1.toHostRewrite().toString())
                .isEqualTo(HostRewrite.fixed("api.internal").toString());
    }

    @Test
    void appliesHeaderRulesAsRemoveThenSetThenAdd() {
        HeaderRulesConfig rules = new HeaderRulesConfig(Map.of("X-A", "added"), Map.of("X-B", "set"), List.of("X-A"));
        HttpHeaders headers = HttpHeaders.of("X-A", "old", "X-B", "old");

        HttpHeaders result = rules.toRules().apply(headers);

        assertThat(result.getAll("X-A")).containsExactly("added");
        assertThat(result.getAll("X-B")).containsExactly("set");
    }

    @Test
    void makesARetryPolicy() {
        ProxyAction todos = (ProxyAction) CONFIG.routes().get(0).action();

        assertThat(todos.retry().toPolicy().maxAttempts()).isEqualTo(2);
        assertThat(todos.retry().toPolicy().retryStatuses()).containsExactly(503);
        assertThat(todos.retry().toPolicy().replayBufferSize()).isEqualTo(65536);
        assertThat(RetryConfig.OFF.toPolicy().maxAttempts()).isEqualTo(1);
        assertThat(RetryConfig.DEFAULT.toPolicy().retryStatuses()).containsExactlyInAnyOrder(502, 503, 504);
    }
}
