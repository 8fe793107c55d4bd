package io.parry.gateway.internal.config;

/**
 * The Redis that {@code store: redis} rate limits share their buckets through (YAML {@code redis}).
 *
 * @param uri where it is, such as {@code redis://127.0.0.1:6379}; a password and database may be in it
 */
public record RedisConfig(String uri) {}
