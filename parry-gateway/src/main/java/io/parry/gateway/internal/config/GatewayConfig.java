package io.parry.gateway.internal.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One gateway configuration file, parsed and validated: listeners, server limits and timeouts,
 * forwarding policy, access log, metrics and tracing, upstream groups and routes. A value with
 * structural equality, so two loads of the same file are equal and a reload can compare parts (an
 * upstream group, a route) with the previous configuration. Made by {@link ConfigLoader}; immutable
 * and thread-safe.
 *
 * @param version the file's optional {@code version} label; empty when absent
 * @param listener where the gateway serves traffic (default {@code 0.0.0.0:8080})
 * @param admin where the admin API listens (default {@code 127.0.0.1:9901})
 * @param limits the gateway server's request limits
 * @param timeouts the gateway server's timeouts
 * @param forwarding which forwarding headers proxied requests get, shared by every proxy route
 * @param observability the access log, metric registries and tracing
 * @param upstreams the upstream groups by name, in declaration order
 * @param routes the routes in declaration order
 */
public record GatewayConfig(
        String version,
        ListenerConfig listener,
        ListenerConfig admin,
        LimitsConfig limits,
        TimeoutsConfig timeouts,
        ForwardingConfig forwarding,
        ObservabilityConfig observability,
        Map<String, UpstreamConfig> upstreams,
        List<RouteConfig> routes) {

    /** Copies the collections, keeping the upstreams' declaration order. */
    public GatewayConfig {
        upstreams = Collections.unmodifiableMap(new LinkedHashMap<>(upstreams));
        routes = List.copyOf(routes);
    }
}
