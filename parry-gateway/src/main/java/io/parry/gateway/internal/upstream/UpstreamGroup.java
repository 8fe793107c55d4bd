package io.parry.gateway.internal.upstream;

import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.PoolStats;
import io.parry.client.upstream.EndpointStatus;
import io.parry.gateway.internal.config.UpstreamConfig;
import io.parry.proxy.GuardedUpstream;
import io.parry.proxy.ProxyObserver;

/**
 * A running upstream group: its configuration, the guarded upstream the proxy routes use (breakers,
 * bulkhead, adaptive limit, health checks) and the client whose pools reach its endpoints. A reload
 * keeps the group as long as its configuration is equal, and with it the pools, the health and
 * breaker state and the adaptive limit it has learned.
 */
public final class UpstreamGroup implements AutoCloseable {
    private final UpstreamConfig config;
    private final HttpClient client;
    private final GuardedUpstream guarded;

    private UpstreamGroup(UpstreamConfig config, HttpClient client, GuardedUpstream guarded) {
        this.config = config;
        this.client = client;
        this.guarded = guarded;
    }

    /**
     * Starts a group for this configuration: a client with its pool and timeouts, and its health
     * checks if it has any; its attempts, retries, breaker transitions and refusals are told to
     * {@code observer}.
     *
     * @throws IllegalArgumentException if a setting is rejected by the client or proxy
     */
    public static UpstreamGroup start(UpstreamConfig config, ProxyObserver observer) {
        // Proxied calls run on the gateway's event loops; the client's own loops only serve the
        // health checks, so one is plenty, whatever the number of groups.
        HttpClient client = HttpClient.builder()
                .options(config.client().toBuilder().eventLoopThreads(1).build())
                .build();
        try {
            GuardedUpstream.Builder builder = GuardedUpstream.builder(config.toUpstream())
                    .client(client)
                    .breaker(config.breaker())
                    .maxConcurrent(config.maxConcurrent())
                    .observer(observer);
            if (config.adaptiveConcurrency() != null) {
                builder.adaptiveConcurrency(config.adaptiveConcurrency());
            }
            GuardedUpstream guarded = builder.build();
            return new UpstreamGroup(config, client, guarded);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** The group's name. */
    public String name() {
        return config.name();
    }

    /** The configuration the group was started with. */
    public UpstreamConfig config() {
        return config;
    }

    /** The guarded upstream proxy routes send requests to. */
    public GuardedUpstream guarded() {
        return guarded;
    }

    /** The pool counts of one endpoint. */
    public PoolStats poolStats(Endpoint endpoint) {
        return client.poolStats(endpoint);
    }

    /**
     * Whether nothing is under way: no request in the bulkhead, no call counted on an endpoint, no
     * connection carrying a call and none awaited.
     */
    public boolean isIdle() {
        if (guarded.inFlight() > 0) {
            return false;
        }
        for (EndpointStatus status : guarded.upstream().status()) {
            PoolStats pool = client.poolStats(status.endpoint());
            if (status.inFlight() > 0 || pool.active() > 0 || pool.pending() > 0) {
                return false;
            }
        }
        return true;
    }

    /** Stops the health checks and closes the client with its connections. */
    @Override
    public void close() {
        try {
            guarded.close();
        } finally {
            client.close();
        }
    }

    @Override
    public String toString() {
        return "UpstreamGroup(" + config.name() + ")";
    }
}
