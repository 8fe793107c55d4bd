package io.parry.gateway.internal.config;

import io.parry.client.PoolOptions;
import java.time.Duration;

/**
 * The connection pool each endpoint of an upstream group gets (YAML {@code pool}), as in
 * {@link PoolOptions}.
 *
 * @param maxConnections the most connections per endpoint and event loop (default 4096)
 * @param maxPending the most requests waiting for a connection (default 1024)
 * @param idleTimeout how long an idle connection is kept (default 60 s)
 * @param maxLifetime the longest a connection is reused; zero for no limit (the default)
 * @param abandonedDrain the most response bytes read to keep a connection whose call was given up
 *     after its request went out; zero closes such connections (default 64 KiB)
 * @param abandonedDrainTime how long such a response may take to end (default 1 s)
 */
public record PoolConfig(
        int maxConnections,
        int maxPending,
        Duration idleTimeout,
        Duration maxLifetime,
        int abandonedDrain,
        Duration abandonedDrainTime) {
    /** The defaults, those of {@link PoolOptions#ofDefault()}. */
    public static final PoolConfig DEFAULT = new PoolConfig(
            PoolOptions.ofDefault().maxConnections(),
            PoolOptions.ofDefault().maxPending(),
            PoolOptions.ofDefault().idleTimeout(),
            PoolOptions.ofDefault().maxLifetime(),
            PoolOptions.ofDefault().abandonedDrain(),
            PoolOptions.ofDefault().abandonedDrainTime());

    /** These settings as client options. */
    public PoolOptions toOptions() {
        return PoolOptions.builder()
                .maxConnections(maxConnections)
                .maxPending(maxPending)
                .idleTimeout(idleTimeout)
                .maxLifetime(maxLifetime)
                .abandonedDrain(abandonedDrain)
                .abandonedDrainTime(abandonedDrainTime)
                .build();
    }
}
