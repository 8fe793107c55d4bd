package io.parry.gateway.internal.config;

import io.parry.client.ClientOptions;
import io.parry.client.Endpoint;
import io.parry.client.upstream.Balancing;
import io.parry.client.upstream.HealthCheck;
import io.parry.client.upstream.OutlierDetection;
import io.parry.client.upstream.Upstream;
import io.parry.proxy.AdaptiveConcurrencyOptions;
import io.parry.proxy.BreakerOptions;
import java.util.List;

/**
 * One upstream group (an entry of YAML {@code upstreams}): its endpoints, how requests are spread
 * over them, how they are checked and guarded, and the options of its own client. Every setting is a
 * library value, so this is equal to another exactly when every setting is the same, which is how a
 * reload knows it can keep a group's pools.
 *
 * @param name the group's name, the key under {@code upstreams}
 * @param endpoints the endpoints with their weights, in declaration order; never empty
 * @param balancing how an endpoint is chosen (default round robin)
 * @param healthCheck the active health check, or {@code null} for none (the default)
 * @param outlierDetection passive ejection of failing endpoints
 * @param breaker the per-endpoint circuit breaker
 * @param maxConcurrent the most requests in flight to the group (the bulkhead); 0 for no limit (the default)
 * @param adaptiveConcurrency the group's adaptive concurrency limit, or {@code null} for none (the default)
 * @param client the group's client: the pool of each endpoint, the calls' timeouts and the name servers
 */
public record UpstreamConfig(
        String name,
        List<Endpoint> endpoints,
        Balancing balancing,
        HealthCheck healthCheck,
        OutlierDetection outlierDetection,
        BreakerOptions breaker,
        int maxConcurrent,
        AdaptiveConcurrencyOptions adaptiveConcurrency,
        ClientOptions client) {

    /** Copies the list. */
    public UpstreamConfig {
        endpoints = List.copyOf(endpoints);
    }

    /** A new {@link Upstream} for this group: endpoints, balancing, outlier detection and health check. */
    public Upstream toUpstream() {
        Upstream.Builder builder =
                Upstream.builder(name).endpoints(endpoints).balancing(balancing).outlierDetection(outlierDetection);
        if (healthCheck != null) {
            builder.healthCheck(healthCheck);
        }
        return builder.build();
    }
}
