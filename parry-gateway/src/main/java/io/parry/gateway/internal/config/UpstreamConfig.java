package io.parry.gateway.internal.config;

import io.parry.client.ClientOptions;
import io.parry.client.Endpoint;
import io.parry.client.upstream.Balancing;
import io.parry.client.upstream.Upstream;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * One upstream group (an entry of YAML {@code upstreams}): its endpoints, how requests are spread
 * over them, how they are checked and guarded, and the client's pool and timeouts. Equal to another
 * exactly when every setting is the same, which is how a reload knows it can keep a group's pools.
 *
 * @param name the group's name, the key under {@code upstreams}
 * @param endpoints the endpoints with their weights, in declaration order; never empty
 * @param balancing how an endpoint is chosen (default round robin)
 * @param healthCheck the active health check, or {@code null} for none (the default)
 * @param outlierDetection passive ejection of failing endpoints
 * @param breaker the per-endpoint circuit breaker
 * @param maxConcurrent the most requests in flight to the group (the bulkhead); 0 for no limit (the default)
 * @param pool the connection pool of each endpoint
 * @param timeouts the upstream calls' timeouts, every field set
 * @param nameServers the DNS servers that resolve endpoint names; empty for the system's (the default)
 */
public record UpstreamConfig(
        String name,
        List<Endpoint> endpoints,
        Balancing balancing,
        HealthCheckConfig healthCheck,
        OutlierDetectionConfig outlierDetection,
        BreakerConfig breaker,
        int maxConcurrent,
        PoolConfig pool,
        ClientTimeoutsConfig timeouts,
        List<InetSocketAddress> nameServers) {

    /** Copies the lists. */
    public UpstreamConfig {
        endpoints = List.copyOf(endpoints);
        nameServers = List.copyOf(nameServers);
    }

    /** A new {@link Upstream} for this group: endpoints, balancing, outlier detection and health check. */
    public Upstream toUpstream() {
        Upstream.Builder builder = Upstream.builder(name)
                .endpoints(endpoints)
                .balancing(balancing)
                .outlierDetection(outlierDetection.toOptions());
        if (healthCheck != null) {
            builder.healthCheck(healthCheck.toOptions());
        }
        return builder.build();
    }

    /** Options for this group's own client: its pool, timeouts and name servers. */
    public ClientOptions toClientOptions() {
        return ClientOptions.builder()
                .pool(pool.toOptions())
                .timeouts(timeouts.toOptions())
                .nameServers(nameServers)
                .build();
    }
}
