package io.parry.gateway.internal.config;

import io.parry.client.upstream.HealthCheck;
import java.time.Duration;

/**
 * An upstream group's active health check (YAML {@code healthCheck}), as in {@link HealthCheck}.
 *
 * @param path the origin-form path requested on each endpoint, such as {@code /health}
 * @param interval the time between checks (default 5 s)
 * @param timeout how long a check may take (default 2 s)
 * @param healthyThreshold consecutive successes that make an endpoint healthy (default 2)
 * @param unhealthyThreshold consecutive failures that make it unhealthy (default 3)
 */
public record HealthCheckConfig(
        String path, Duration interval, Duration timeout, int healthyThreshold, int unhealthyThreshold) {

    /** This check as client options. */
    public HealthCheck toOptions() {
        return HealthCheck.builder(path)
                .interval(interval)
                .timeout(timeout)
                .healthyThreshold(healthyThreshold)
                .unhealthyThreshold(unhealthyThreshold)
                .build();
    }
}
