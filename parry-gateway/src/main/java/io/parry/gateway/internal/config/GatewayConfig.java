package io.parry.gateway.internal.config;

import io.parry.proxy.ForwardingOptions;
import io.parry.server.ServerOptions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One gateway configuration file, parsed and validated: listeners with their limits, timeouts and
 * tracing, forwarding policy, access log, metrics, upstream groups and routes. Its settings are the
 * library's own option values, so two loads of the same file are equal and a reload can compare
 * parts (an upstream group, a route) with the previous configuration. Made by {@link ConfigLoader};
 * immutable and thread-safe.
 *
 * @param version the file's optional {@code version} label; empty when absent
 * @param listener where and how the gateway serves traffic: host and port (default {@code 0.0.0.0:8080}),
 *     request limits, server timeouts, tracing (default on) and TLS (default none)
 * @param redirectListener a cleartext listener that answers every request with a 308 to the same URL
 *     over HTTPS on {@code listener}; {@code null} when the file has none
 * @param admin where the admin API listens (default {@code 127.0.0.1:9901}); only host and port are read
 * @param forwarding which forwarding headers proxied requests get, shared by every proxy route
 * @param accessLog the access log's format, or none (default JSON lines)
 * @param metrics the metric registries (default Prometheus)
 * @param upstreams the upstream groups by name, in declaration order
 * @param routes the routes in declaration order
 */
public record GatewayConfig(
        String version,
        ServerOptions listener,
        ServerOptions redirectListener,
        ServerOptions admin,
        ForwardingOptions forwarding,
        AccessLogKind accessLog,
        MetricsConfig metrics,
        Map<String, UpstreamConfig> upstreams,
        List<RouteConfig> routes) {

    /** Copies the collections, keeping the upstreams' declaration order. */
    public GatewayConfig {
        upstreams = Collections.unmodifiableMap(new LinkedHashMap<>(upstreams));
        routes = List.copyOf(routes);
    }
}
