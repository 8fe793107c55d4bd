package io.parry.gateway.internal.config;

import static io.parry.gateway.internal.config.ConfigValidationTest.errors;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.proxy.AdaptiveConcurrencyOptions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An upstream's {@code adaptiveConcurrency} becomes the proxy's options, off unless it is there. */
class AdaptiveConcurrencyConfigTest {
    @Test
    void readsEverySettingIntoTheProxysOptions() {
        String yaml =
                """
                upstreams:
                  api:
                    endpoints: [127.0.0.1:9000]
                    adaptiveConcurrency:
                      initialLimit: 50
                      minLimit: 10
                      maxLimit: 400
                      rttTolerance: 2.5
                      smoothing: 0.5
                      queueSize: 8
                      window: 250ms
                      longWindow: 100
                      backoffRatio: 0.75
                      probeInterval: 45s
                      probeJitter: 0.3
                """;

        assertThat(upstream(yaml, "api").adaptiveConcurrency())
                .isEqualTo(AdaptiveConcurrencyOptions.builder()
                        .initialLimit(50)
                        .minLimit(10)
                        .maxLimit(400)
                        .rttTolerance(2.5)
                        .smoothing(0.5)
                        .queueSize(8)
                        .window(Duration.ofMillis(250))
                        .longWindow(100)
                        .backoffRatio(0.75)
                        .probeInterval(Duration.ofSeconds(45))
                        .probeJitter(0.3)
                        .build());
    }

    @Test
    void isOffUnlessConfiguredAndOnGivesTheDefaults() {
        String yaml =
                """
                upstreams:
                  plain: { endpoints: [127.0.0.1:9000] }
                  off: { endpoints: [127.0.0.1:9001], adaptiveConcurrency: off }
                  on: { endpoints: [127.0.0.1:9002], adaptiveConcurrency: on }
                  some: { endpoints: [127.0.0.1:9003], adaptiveConcurrency: { maxLimit: 64 } }
                """;

        assertThat(upstream(yaml, "plain").adaptiveConcurrency()).isNull();
        assertThat(upstream(yaml, "off").adaptiveConcurrency()).isNull();
        assertThat(upstream(yaml, "on").adaptiveConcurrency()).isEqualTo(AdaptiveConcurrencyOptions.ofDefault());
        assertThat(upstream(yaml, "some").adaptiveConcurrency())
                .isEqualTo(AdaptiveConcurrencyOptions.builder().maxLimit(64).build());
    }

    @Test
    void reportsEachMistakeAtItsLine() {
        String yaml =
                """
                upstreams:
                  a:
                    endpoints: [h:1]
                    adaptiveConcurrency:
                      rttTolerance: 0.5
                      smoothing: 1e-1
                      window: 0s
                      queueSize: -1
                      maxLimt: 10
                """;

        assertThat(errors(yaml))
                .containsExactly(
                        "gw.yaml:5:21: 'rttTolerance' must be a number from 1 to 100, got '0.5'",
                        "gw.yaml:6:18: 'smoothing' must be a number from 0.01 to 1, got '1e-1'",
                        "gw.yaml:7:15: 'window' must be a duration greater than zero such as 250ms, 10s, 2m or 1h,"
                                + " got '0s'",
                        "gw.yaml:8:18: 'queueSize' must be an integer of at least 0, got '-1'",
                        "gw.yaml:9:7: unknown key 'maxLimt' in upstream 'a' adaptiveConcurrency, did you mean"
                                + " 'maxLimit'? (expected one of: initialLimit, minLimit, maxLimit, rttTolerance,"
                                + " smoothing, queueSize, window, longWindow, backoffRatio, probeInterval,"
                                + " probeJitter)");
    }

    @Test
    void reportsLimitsThatDoNotFitTogether() {
        String yaml =
                """
                upstreams:
                  a:
                    endpoints: [h:1]
                    adaptiveConcurrency: { initialLimit: 2000, maxLimit: 100 }
                """;

        assertThat(errors(yaml))
                .containsExactly("gw.yaml:4:26: upstream 'a' adaptiveConcurrency is invalid: initialLimit: 2000"
                        + " (expected: 4 to 100)");
    }

    private static UpstreamConfig upstream(String yaml, String name) {
        String routes = "routes:\n  - { match: { prefix: /a }, proxy: { upstream: " + name + " } }\n";
        return ConfigLoader.parse(yaml + routes, "gw.yaml", Map.of())
                .upstreams()
                .get(name);
    }
}
