package io.parry.gateway.internal.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.parry.gateway.internal.config.MetricsConfig;
import io.parry.gateway.internal.upstream.GroupObserver;
import io.parry.gateway.internal.upstream.UpstreamGroup;
import io.parry.micrometer.PrometheusEndpoint;
import io.parry.micrometer.ProxyMetrics;
import io.parry.micrometer.RateLimitMetrics;
import io.parry.micrometer.ServerMetrics;
import io.parry.proxy.ProxyObserver;
import io.parry.server.Handler;
import io.parry.server.Server;
import java.util.Optional;

/**
 * The gateway's meters: the data-plane server's ({@link ServerMetrics}), the proxy's ({@link
 * ProxyMetrics}, with the latency the gateway adds) and the rate limits' ({@link RateLimitMetrics}), recorded to a Prometheus registry, a JMX one or
 * both. As the upstream registry's {@link GroupObserver} it observes every upstream group and binds
 * its gauges while the group is live. Thread-safe.
 */
public final class GatewayMetrics implements GroupObserver, AutoCloseable {
    private final MeterRegistry registry;
    private final PrometheusMeterRegistry prometheus;
    private final MeterRegistry jmx;
    private final ServerMetrics server;
    private final ProxyMetrics proxy;
    private final RateLimitMetrics rateLimits;

    private GatewayMetrics(MeterRegistry registry, PrometheusMeterRegistry prometheus, MeterRegistry jmx) {
        this.registry = registry;
        this.prometheus = prometheus;
        this.jmx = jmx;
        this.server = ServerMetrics.of(registry);
        this.proxy = ProxyMetrics.of(registry);
        this.rateLimits = RateLimitMetrics.of(registry);
    }

    /**
     * The registries the configuration asks for, or empty when it asks for none.
     *
     * @throws IllegalStateException if JMX is asked for and the platform MBean server refuses it
     */
    public static Optional<GatewayMetrics> start(MetricsConfig config) {
        if (!config.enabled()) {
            return Optional.empty();
        }
        PrometheusMeterRegistry prometheus =
                config.prometheus() ? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT) : null;
        if (!config.jmx()) {
            return Optional.of(new GatewayMetrics(prometheus, prometheus, null));
        }
        MeterRegistry jmx = JmxRegistry.start();
        if (prometheus == null) {
            return Optional.of(new GatewayMetrics(jmx, null, jmx));
        }
        CompositeMeterRegistry both = new CompositeMeterRegistry();
        both.add(prometheus);
        both.add(jmx);
        return Optional.of(new GatewayMetrics(both, prometheus, jmx));
    }

    /** The meters of the data-plane server: a request listener, a filter and its own counts. */
    public ServerMetrics server() {
        return server;
    }

    /** The proxy's meters; also a request listener, for the latency the gateway adds. */
    public ProxyMetrics proxy() {
        return proxy;
    }

    /** The counts of the routes' rate limit decisions. */
    public RateLimitMetrics rateLimits() {
        return rateLimits;
    }

    /** Registers the gauges and counters that read the data-plane server's own counts. */
    public void bind(Server dataPlane) {
        server.bind(dataPlane);
    }

    /** Registers meters of the process's own (the demo service's WebSocket sessions, say) with the registries. */
    public void bind(MeterBinder binder) {
        binder.bindTo(registry);
    }

    /** The Prometheus scrape handler, if Prometheus is on. */
    public Optional<Handler> scrapeHandler() {
        return prometheus == null ? Optional.empty() : Optional.of(PrometheusEndpoint.handler(prometheus));
    }

    @Override
    public ProxyObserver proxyObserver() {
        return proxy;
    }

    @Override
    public void live(UpstreamGroup group) {
        proxy.bind(group.guarded());
    }

    @Override
    public void retired(UpstreamGroup group) {
        proxy.unbind(group.guarded());
    }

    /** Closes the registries: the JMX one unregisters its MBeans. Closing one twice does nothing. */
    @Override
    public void close() {
        registry.close();
        if (prometheus != null) {
            prometheus.close();
        }
        if (jmx != null) {
            jmx.close();
        }
    }
}
