package io.parry.gateway.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A 5,000-route file loads quickly; the time is printed for the record, not asserted, as a timing
 * assertion would only make the build flaky. The benchmark module measures load and swap together.
 */
class LargeRouteTableTest {
    private static final int ROUTES = 5_000;

    @Test
    void loadsFiveThousandRoutes() {
        String yaml = largeFile();
        ConfigLoader.parse(yaml, "warm-up.yaml", Map.of());

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long bestWall = Long.MAX_VALUE;
        long bestCpu = Long.MAX_VALUE;
        GatewayConfig config = null;
        for (int i = 0; i < 5; i++) {
            long cpu = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            config = ConfigLoader.parse(yaml, "large.yaml", Map.of());
            bestWall = Math.min(bestWall, System.nanoTime() - start);
            bestCpu = Math.min(bestCpu, threads.getCurrentThreadCpuTime() - cpu);
        }

        assertThat(config.routes()).hasSize(ROUTES);
        assertThat(config.upstreams()).hasSize(50);
        System.out.printf(
                "LargeRouteTableTest: parsed and validated %d routes (%d KiB of YAML) in %.1f ms wall, %.1f ms CPU"
                        + " (best of 5)%n",
                ROUTES, yaml.length() / 1024, bestWall / 1e6, bestCpu / 1e6);
    }

    static String largeFile() {
        StringBuilder yaml = new StringBuilder("upstreams:\n");
        for (int u = 0; u < 50; u++) {
            yaml.append("  service-").append(u).append(":\n");
            yaml.append("    endpoints: [\"10.0.")
                    .append(u)
                    .append(".1:8080\", \"10.0.")
                    .append(u)
                    .append(".2:8080\"]\n");
            yaml.append("    breaker: { openDuration: 5s }\n");
        }
        yaml.append("routes:\n");
        for (int r = 0; r < ROUTES; r++) {
            yaml.append("  - name: route-").append(r).append('\n');
            switch (r % 3) {
                case 0:
                    yaml.append("    match: { prefix: /api/v").append(r).append(", methods: [GET, POST] }\n");
                    yaml.append("    proxy:\n      upstream: service-")
                            .append(r % 50)
                            .append('\n');
                    yaml.append("      stripPrefix: /api\n");
                    yaml.append("      requestHeaders: { set: { X-Route: \"")
                            .append(r)
                            .append("\" } }\n");
                    yaml.append("      retry: { maxAttempts: 2 }\n");
                    break;
                case 1:
                    yaml.append("    match: { path: \"/users/{id}/items")
                            .append(r)
                            .append("\" }\n");
                    yaml.append("    proxy: { upstream: service-")
                            .append(r % 50)
                            .append(", pathTemplate: \"/items/{id}\", timeouts: { responseHeaders: 2s } }\n");
                    break;
                default:
                    yaml.append("    match: { path: /static/").append(r).append(", host: www.example.com }\n");
                    yaml.append("    respond: { status: 200, body: \"route ")
                            .append(r)
                            .append("\" }\n");
                    break;
            }
        }
        return yaml.toString();
    }
}
