package io.parry.gateway.internal.config;

import io.parry.ratelimit.LocalRateLimiter;
import io.parry.ratelimit.RateLimit;
import io.parry.ratelimit.redis.FailurePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code rateLimit} mappings (of a route, and under {@code defaults}) and the top-level {@code
 * redis} connection they may share buckets through.
 */
final class RateLimitReader {
    static final List<String> KEYS =
            List.of("rate", "period", "burst", "key", "store", "timeout", "onFailure", "batch", "maxKeys");
    static final List<String> REDIS_KEYS = List.of("uri");
    static final List<String> STORES = List.of("local", "redis");
    static final List<String> FAILURE_POLICIES = List.of("open", "closed");
    static final String CLIENT_ADDRESS = "client_address";
    static final String ROUTE = "route";
    static final String HEADER = "header:";
    static final String CLAIM = "claim:";
    static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);
    private static final String KEY_EXPECTED =
            "client_address, route, header:<name> or claim:<name>, or a list of them";

    private RateLimitReader() {}

    /** The top-level {@code redis} connection, or {@code null} when the file has none. */
    static RedisConfig redis(Section top) {
        Section section = top.section("redis", "'redis'", REDIS_KEYS);
        if (section == null) {
            return null;
        }
        String uri = section.requiredString("uri", "a Redis URI such as redis://127.0.0.1:6379");
        if (uri == null) {
            return null;
        }
        if (!(uri.startsWith("redis://") || uri.startsWith("rediss://") || uri.startsWith("redis-socket://"))
                || GatewayConfigReader.hasSpaceOrControl(uri)) {
            section.invalid("uri", "'uri' must be a Redis URI such as redis://127.0.0.1:6379, got '" + uri + "'");
            return null;
        }
        return new RedisConfig(uri);
    }

    /**
     * The {@code rateLimit} under the parent: {@code fallback} when absent, {@code null} when {@code off},
     * else the one written; {@code null} after errors.
     */
    static RateLimitConfig read(Section parent, String context, RateLimitConfig fallback, RedisConfig redis) {
        if (!parent.has("rateLimit")) {
            return fallback;
        }
        if (parent.isOff("rateLimit")) {
            return null;
        }
        Section section = parent.section("rateLimit", context + " rateLimit", KEYS);
        if (section == null) {
            return null;
        }
        int errorsBefore = section.errors().count();
        RateLimit.Builder builder =
                bucket(section, "the requests allowed per period, such as 100", Duration.ofSeconds(1));
        RateLimit limit = section.build(errorsBefore, builder::build, null);
        List<String> key = key(section);
        boolean shared = store(section);
        if (shared && redis == null) {
            section.invalid(
                    "store",
                    context + " rateLimit has store: redis, but the file has no top-level 'redis' (expected"
                            + " redis: { uri: redis://host:6379 })");
        }
        if (shared && limit != null && limit.intervalNanos() < 1000) {
            section.invalid(
                    "rate",
                    "a rateLimit with store: redis grants at most one token per microsecond (Redis's clock counts"
                            + " microseconds), got " + limit);
        }
        FailurePolicy onFailure = onFailure(section);
        Duration timeout = section.positiveDuration("timeout", DEFAULT_TIMEOUT);
        int batch = section.integer("batch", 1, Integer.MAX_VALUE, 1);
        if (limit != null && batch > limit.burst()) {
            section.invalid("batch", "'batch' must be at most the burst, " + limit.burst() + ", got " + batch);
        }
        int maxKeys = section.integer("maxKeys", 1, Integer.MAX_VALUE, LocalRateLimiter.DEFAULT_MAX_KEYS);
        if (section.errors().count() > errorsBefore) {
            return null;
        }
        return new RateLimitConfig(limit, key, shared, timeout, onFailure, batch, maxKeys);
    }

    /**
     * A token bucket's {@code rate} (required, {@code meaning} saying what it counts), {@code period}
     * and {@code burst} (the rate unless given) from {@code section}.
     */
    static RateLimit.Builder bucket(Section section, String meaning, Duration defaultPeriod) {
        long rate = section.longValue("rate", 1, Long.MAX_VALUE, 1);
        if (!section.has("rate")) {
            section.missing("rate", meaning);
        }
        return RateLimit.builder()
                .rate(rate)
                .period(section.positiveDuration("period", defaultPeriod))
                .burst(section.longValue("burst", 1, Long.MAX_VALUE, rate));
    }

    private static List<String> key(Section section) {
        YamlNode node = section.node("key");
        if (node == null) {
            return List.of(CLIENT_ADDRESS);
        }
        List<YamlScalar> parts = new ArrayList<>();
        if (node instanceof YamlScalar scalar && !scalar.isNull()) {
            parts.add(scalar);
        } else if (node instanceof YamlList) {
            parts.addAll(section.scalars("key", KEY_EXPECTED));
        } else {
            section.wrongType("key", KEY_EXPECTED, node);
        }
        List<String> key = new ArrayList<>();
        for (YamlScalar part : parts) {
            String text = part.text();
            boolean header = text.startsWith(HEADER) && HeaderSyntax.isName(text.substring(HEADER.length()));
            boolean claim = text.startsWith(CLAIM) && text.length() > CLAIM.length();
            if (!header && !claim && !text.equals(CLIENT_ADDRESS) && !text.equals(ROUTE)) {
                String closest = ClosestName.of(text, List.of(CLIENT_ADDRESS, ROUTE));
                section.error(
                        part.location(),
                        "'" + text + "' in 'key' is not a key (expected " + KEY_EXPECTED + ")"
                                + (closest == null ? "" : ", did you mean '" + closest + "'?"));
            }
            key.add(text);
        }
        if (key.isEmpty() && node instanceof YamlList) {
            section.invalid("key", "'key' must name at least one part (expected " + KEY_EXPECTED + ")");
        }
        return key;
    }

    private static boolean store(Section section) {
        String text = section.string("store", "local");
        if (!STORES.contains(text)) {
            section.invalid("store", "'store' must be local or redis, got '" + text + "'");
        }
        return text.equals("redis");
    }

    private static FailurePolicy onFailure(Section section) {
        String text = section.string("onFailure", "open");
        if (!FAILURE_POLICIES.contains(text)) {
            section.invalid(
                    "onFailure",
                    "'onFailure' must be open (let requests pass) or closed (answer 503), got '" + text + "'");
            return FailurePolicy.OPEN;
        }
        return text.equals("closed") ? FailurePolicy.CLOSED : FailurePolicy.OPEN;
    }
}
