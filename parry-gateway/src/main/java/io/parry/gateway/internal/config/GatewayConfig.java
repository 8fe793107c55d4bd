package io.parry.gateway.internal.config;

import io.parry.proxy.ForwardingOptions;
import io.parry.server.OverloadOptions;
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
 * @param adminToken the bearer token the admin API requires, or {@code null} for none (only on loopback)
 * @param redis the Redis that shared rate limits use, or {@code null} when the file has none
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
        List<RouteConfig> routes,
        String adminToken,
        RedisConfig redis,
        OverloadOptions overload) {

    /** Copies the collections, keeping the upstreams' declaration order. */
    public GatewayConfig {
        upstreams = Collections.unmodifiableMap(new LinkedHashMap<>(upstreams));
        routes = List.copyOf(routes);
        overload = overload == null ? OverloadOptions.off() : overload;
    }

    /** The configuration without the admin token's value, which must not reach a log. */
    @Override
    public String toString() {
        return "GatewayConfig[version=" + version + ", listener=" + listener + ", redirectListener=" + redirectListener
                + ", admin=" + admin + ", forwarding="
                + forwarding + ", accessLog=" + accessLog + ", metrics=" + metrics + ", upstreams=" + upstreams
                + ", routes=" + routes + ", adminToken=" + (adminToken == null ? "none" : "(set)") + ", redis="
                + redis + ", overload=" + overload + "]";
    }

    /** A configuration whose admin API requires no token, without Redis. */
    public GatewayConfig(
            String version,
            ServerOptions listener,
            ServerOptions redirectListener,
            ServerOptions admin,
            ForwardingOptions forwarding,
            AccessLogKind accessLog,
            MetricsConfig metrics,
            Map<String, UpstreamConfig> upstreams,
            List<RouteConfig> routes) {
        this(version, listener, redirectListener, admin, forwarding, accessLog, metrics, upstreams, routes, null, null);
    }

    /** A configuration without overload shedding. */
    public GatewayConfig(
            String version,
            ServerOptions listener,
            ServerOptions redirectListener,
            ServerOptions admin,
            ForwardingOptions forwarding,
            AccessLogKind accessLog,
            MetricsConfig metrics,
            Map<String, UpstreamConfig> upstreams,
            List<RouteConfig> routes,
            String adminToken,
            RedisConfig redis) {
        this(
                version,
                listener,
                redirectListener,
                admin,
                forwarding,
                accessLog,
                metrics,
                upstreams,
                routes,
                adminToken,
                redis,
                OverloadOptions.off());
    }
}
