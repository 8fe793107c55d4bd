package io.parry.gateway.internal.ratelimit;

import static java.util.Objects.requireNonNull;

import io.parry.auth.Identity;
import io.parry.gateway.internal.config.RateLimitConfig;
import io.parry.gateway.internal.config.RedisConfig;
import io.parry.proxy.ForwardingOptions;
import io.parry.ratelimit.LocalRateLimiter;
import io.parry.ratelimit.RateLimitFilter;
import io.parry.ratelimit.RateLimitKey;
import io.parry.ratelimit.RateLimitObserver;
import io.parry.ratelimit.RateLimiter;
import io.parry.ratelimit.redis.RedisRateLimitStore;
import io.parry.ratelimit.redis.RedisRateLimiter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routes' rate limiters across reloads. A reload {@linkplain #prepare prepares} the filters of its
 * routes, keeping the limiter (and so the buckets) of every route whose name and limit are unchanged,
 * then {@linkplain Change#commit() commits} them once its route table is live, or {@linkplain
 * Change#abandon() abandons} them. The Redis connection is opened when a configuration first names one and replaced when its
 * URI changes. Prepare and commit are called by one reload at a time.
 */
public final class RateLimits implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RateLimits.class);
    private static final long RETIRE_STORE_SECONDS = 5;
    private static final long CONNECT_WAIT_SECONDS = 2;

    private final RateLimitObserver observer;
    private Map<String, Limiter> live = Map.of();
    private RedisConfig redisConfig;
    private RedisRateLimitStore redis;

    /** Limits that report every decision to the observer. */
    public RateLimits(RateLimitObserver observer) {
        this.observer = requireNonNull(observer, "observer");
    }

    /** The filters of a configuration's routes, made with its forwarding policy and Redis. */
    public Change prepare(ForwardingOptions forwarding, RedisConfig redisConfig) {
        return new Change(forwarding, redisConfig);
    }

    /** Closes the Redis connection, if one is open. */
    @Override
    public synchronized void close() {
        if (redis != null) {
            redis.close();
            redis = null;
        }
    }

    private synchronized RedisRateLimitStore redis(RedisConfig config) {
        if (redis != null && config.equals(redisConfig)) {
            return redis;
        }
        RedisRateLimitStore store = RedisRateLimitStore.connect(config.uri());
        try {
            // Off the event loops (start-up or the reload thread): the first requests should find Redis.
            store.ready().toCompletableFuture().get(CONNECT_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("{} is not reachable yet; its rate limits follow their onFailure policy until it is", store);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return store;
    }

    private synchronized void commit(Map<String, Limiter> limiters, RedisConfig config, RedisRateLimitStore store) {
        live = Map.copyOf(limiters);
        if (store != redis) {
            RedisRateLimitStore previous = redis;
            redis = store;
            redisConfig = config;
            if (previous != null) {
                // Requests in flight may still be waiting for its replies.
                CompletableFuture.delayedExecutor(RETIRE_STORE_SECONDS, TimeUnit.SECONDS)
                        .execute(previous::close);
            }
        }
    }

    private synchronized void abandon(RedisRateLimitStore store) {
        if (store != null && store != redis) {
            store.close();
        }
    }

    /** A limiter and the configuration it was made from. */
    private record Limiter(RateLimitConfig config, RateLimiter limiter) {}

    /** The filters prepared for one configuration. */
    public final class Change {
        private final ForwardingOptions forwarding;
        private final RedisConfig redisConfig;
        private final Map<String, Limiter> limiters = new HashMap<>();
        private RedisRateLimitStore store;

        private Change(ForwardingOptions forwarding, RedisConfig redisConfig) {
            this.forwarding = forwarding;
            this.redisConfig = redisConfig;
        }

        /** The filter of the route with this name and limit. */
        public RateLimitFilter filter(String route, RateLimitConfig config) {
            Limiter existing = live.get(route);
            Limiter limiter = existing != null && existing.config().equals(config) && !config.redis()
                    ? existing
                    : new Limiter(config, limiter(route, config));
            limiters.put(route, limiter);
            return RateLimitFilter.builder(limiter.limiter())
                    .name(route)
                    .key(key(config.key()))
                    .observer(observer)
                    .build();
        }

        /** Makes these limiters the live ones; the next reload keeps those it finds unchanged. */
        public void commit() {
            RateLimits.this.commit(limiters, redisConfig, store != null ? store : redisConfig == null ? null : redis);
        }

        /** Drops these limiters, closing a Redis connection opened for them alone. */
        public void abandon() {
            RateLimits.this.abandon(store);
        }

        private RateLimiter limiter(String route, RateLimitConfig config) {
            if (!config.redis()) {
                return LocalRateLimiter.of(config.limit(), config.maxKeys());
            }
            if (store == null) {
                store = redis(redisConfig);
            }
            return RedisRateLimiter.builder(store, config.limit())
                    .prefix("parry:ratelimit:" + route + ":")
                    .timeout(config.timeout())
                    .failurePolicy(config.onFailure())
                    .batch(config.batch())
                    .build();
        }

        private RateLimitKey key(List<String> parts) {
            RateLimitKey[] keys = new RateLimitKey[parts.size()];
            for (int i = 0; i < keys.length; i++) {
                String part = parts.get(i);
                if (part.equals("client_address")) {
                    keys[i] = RateLimitKey.clientAddress(forwarding.trustedProxyBlocks());
                } else if (part.equals("route")) {
                    keys[i] = RateLimitKey.route();
                } else if (part.startsWith("claim:")) {
                    keys[i] = claim(part.substring("claim:".length()));
                } else {
                    keys[i] = RateLimitKey.header(part.substring("header:".length()));
                }
            }
            return RateLimitKey.all(keys);
        }

        /**
         * A claim the route's authentication verified, as text. Requests whose identity lacks it share
         * one bucket, as requests without a keyed header do, so leaving the claim out does not escape
         * the limit (a route that must refuse them names the claim in {@code requiredClaims}).
         */
        private static RateLimitKey claim(String name) {
            return (ctx, request) -> {
                Optional<Identity> identity = Identity.of(ctx);
                return identity.isEmpty() ? "" : identity.get().claimText(name).orElse("");
            };
        }
    }
}
