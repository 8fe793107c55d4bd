package io.parry.gateway.internal.reload;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.gateway.internal.config.ConfigLoader;
import io.parry.gateway.internal.config.GatewayConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigDiffTest {
    private static final String BEFORE =
            """
            listener: { port: 8080 }
            upstreams:
              a: { endpoints: ["127.0.0.1:9001"] }
              b: { endpoints: ["127.0.0.1:9002"] }
            routes:
              - { name: one, match: { prefix: /one }, proxy: { upstream: a } }
              - { name: two, match: { prefix: /two }, proxy: { upstream: b } }
            """;

    @Test
    void namesAddedRemovedAndChangedRoutesAndUpstreams() {
        GatewayConfig after = parse(
                """
                listener: { port: 8080 }
                upstreams:
                  a: { endpoints: ["127.0.0.1:9001"] }
                  c: { endpoints: ["127.0.0.1:9003"] }
                routes:
                  - { name: one, match: { prefix: /uno }, proxy: { upstream: a } }
                  - { name: three, match: { prefix: /three }, proxy: { upstream: c } }
                """);

        ConfigDiff diff = ConfigDiff.between(parse(BEFORE), after);

        assertThat(diff.changesRouting()).isTrue();
        assertThat(diff.needRestart()).isEmpty();
        assertThat(diff)
                .hasToString("routes: added [three], removed [two], changed [one]; upstreams: added [c], removed [b],"
                        + " changed []");
    }

    @Test
    void reportsReorderedRoutesAndSettingsThatNeedARestart() {
        GatewayConfig after = parse(
                """
                listener: { port: 8081 }
                upstreams:
                  a: { endpoints: ["127.0.0.1:9001"] }
                  b: { endpoints: ["127.0.0.1:9002"] }
                routes:
                  - { name: two, match: { prefix: /two }, proxy: { upstream: b } }
                  - { name: one, match: { prefix: /one }, proxy: { upstream: a } }
                """);

        ConfigDiff diff = ConfigDiff.between(parse(BEFORE), after);

        assertThat(diff.changesRouting()).isTrue();
        assertThat(diff.toString()).contains("reordered");
        assertThat(diff.needRestart()).containsExactly("listener");
    }

    @Test
    void accessLogMetricsAndTracingNeedARestart() {
        GatewayConfig after = parse(BEFORE + "accessLog: combined\nmetrics: { jmx: true }\ntracing: false\n");

        ConfigDiff diff = ConfigDiff.between(parse(BEFORE), after);

        assertThat(diff.changesRouting()).isFalse();
        assertThat(diff.needRestart()).containsExactly("accessLog", "metrics", "tracing");
    }

    @Test
    void limitsAndServerTimeoutsNeedARestartUnderTheirOwnNames() {
        GatewayConfig after = parse(BEFORE + "limits: { maxBodySize: 1MiB }\ntimeouts: { idle: 5s }\n");

        ConfigDiff diff = ConfigDiff.between(parse(BEFORE), after);

        assertThat(diff.changesRouting()).isFalse();
        assertThat(diff.needRestart()).containsExactly("limits", "timeouts");
    }

    @Test
    void keepsAnUpstreamGroupThatSpellsOutItsDefaultsAndChangesOneWhoseOptionsDiffer() {
        GatewayConfig spelledOut = parse(BEFORE.replace(
                "a: { endpoints: [\"127.0.0.1:9001\"] }",
                "a: { endpoints: [\"127.0.0.1:9001\"], breaker: { failureRateThreshold: 50 },"
                        + " pool: { maxPending: 1024 }, timeouts: { connect: 2s } }"));
        GatewayConfig changed = parse(BEFORE.replace(
                "a: { endpoints: [\"127.0.0.1:9001\"] }",
                "a: { endpoints: [\"127.0.0.1:9001\"], pool: { maxPending: 1023 } }"));

        assertThat(ConfigDiff.between(parse(BEFORE), spelledOut).changesRouting())
                .isFalse();
        assertThat(ConfigDiff.between(parse(BEFORE), changed))
                .hasToString("routes: added [], removed [], changed []; upstreams: added [], removed [], changed [a]");
    }

    @Test
    void equalConfigurationsDifferInNothing() {
        ConfigDiff diff = ConfigDiff.between(parse(BEFORE), parse(BEFORE));

        assertThat(diff.changesRouting()).isFalse();
        assertThat(diff.needRestart()).isEmpty();
    }

    private static GatewayConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "test.yaml", Map.of());
    }
}
