package io.parry.gateway.internal.config;

import static io.parry.gateway.internal.config.ConfigValidationTest.errors;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.OverloadOptions;
import io.parry.server.Priority;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The YAML of overload shedding: the top-level thresholds, route priorities, and errors with their line. */
class OverloadConfigTest {
    private static final String ROUTES =
            """
            routes:
              - name: reports
                match: { path: /reports }
                priority: sheddable
                respond: {}
              - name: health
                match: { path: /health }
                priority: exempt
                respond: {}
              - name: plain
                match: { path: /plain }
                respond: {}
            """;

    @Test
    void readsTheThresholdsAndEachRoutesPriority() {
        GatewayConfig config = ConfigLoader.parse(
                "overload: { eventLoopLag: 200ms, maxInFlight: 5000, heap: 90%, directMemory: 256MiB, retryAfter: 2s }\n"
                        + ROUTES,
                "gw.yaml",
                Map.of());

        assertThat(config.overload())
                .isEqualTo(OverloadOptions.builder()
                        .eventLoopLag(Duration.ofMillis(200))
                        .maxInFlight(5000)
                        .heap(0.9)
                        .directMemory(256L << 20)
                        .retryAfter(Duration.ofSeconds(2))
                        .build());
        assertThat(config.routes())
                .extracting(RouteConfig::priority)
                .containsExactly(Priority.SHEDDABLE, Priority.EXEMPT, Priority.NORMAL);
    }

    @Test
    void takesDirectMemoryAsAShareOfTheJvmsMaximum() {
        GatewayConfig config = ConfigLoader.parse("overload: { directMemory: 50% }\n", "gw.yaml", Map.of());

        assertThat(config.overload())
                .isEqualTo(OverloadOptions.builder().directMemoryFraction(0.5).build());
    }

    @Test
    void shedsNothingWithoutTheSection() {
        GatewayConfig config = ConfigLoader.parse(ROUTES, "gw.yaml", Map.of());

        assertThat(config.overload().isEnabled()).isFalse();
    }

    @Test
    void reportsWrongValuesAtTheirLine() {
        assertThat(
                        errors(
                                """
                        overload:
                          heap: 0.9
                          directMemory: 120%
                          maxInFlight: 0
                          retryAfter: 0s
                        routes:
                          - match: { path: /a }
                            priority: sheddible
                            respond: {}
                        """))
                .containsExactly(
                        "gw.yaml:2:9: 'heap' must be a percentage above 0 and at most 100, such as 90%, got '0.9'",
                        "gw.yaml:3:17: 'directMemory' must be a size such as 512MiB, or a percentage above 0 and at"
                                + " most 100, such as 90%, got '120%'",
                        "gw.yaml:4:16: 'maxInFlight' must be an integer of at least 1, got '0'",
                        "gw.yaml:5:15: 'retryAfter' must be a duration greater than zero such as 250ms, 10s, 2m or"
                                + " 1h, got '0s'",
                        "gw.yaml:8:15: 'priority' must be one of critical, normal, sheddable, exempt, got"
                                + " 'sheddible', did you mean 'sheddable'?");
    }

    @Test
    void reportsASectionThatTurnsNothingOn() {
        assertThat(errors("overload: { retryAfter: 5s }\n"))
                .containsExactly("gw.yaml:1:11: 'overload' turns no signal on (expected at least one of eventLoopLag,"
                        + " maxInFlight, heap, directMemory)");
    }
}
