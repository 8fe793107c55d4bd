package io.parry.ratelimit.redis.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The limiter's Lua script: GCRA on Redis's own clock ({@code TIME}), so that instances whose clocks
 * differ share one bucket exactly. One key per bucket holds its theoretical arrival time in
 * microseconds and expires when the bucket is full again, so idle buckets cost Redis nothing.
 *
 * <p>{@code KEYS[1]} is the bucket; {@code ARGV} the interval between tokens and the bucket's capacity
 * (both in microseconds) and the tokens wanted. It grants as many of those as the bucket holds, at
 * least one or none, and answers {@code {granted, remaining, retryAfterMicros, resetMicros}}. The script
 * runs atomically (Redis runs one script at a time), and Redis 7 replicates its effects, not the script,
 * so reading {@code TIME} before a write is allowed.
 */
public final class GcraScript {
    public static final String TEXT =
            """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
            local interval = tonumber(ARGV[1])
            local capacity = tonumber(ARGV[2])
            local wanted = tonumber(ARGV[3])
            local tat = tonumber(redis.call('GET', KEYS[1])) or now
            if tat < now then tat = now end
            local free = math.floor((capacity - (tat - now)) / interval)
            if free < 1 then
              return {0, 0, tat + interval - now - capacity, tat - now}
            end
            local granted = math.min(wanted, free)
            local newTat = tat + granted * interval
            redis.call('SET', KEYS[1], string.format('%.0f', newTat), 'PX', math.ceil((newTat - now) / 1000))
            return {granted, free - granted, 0, newTat - now}
            """;

    /** The SHA-1 Redis knows the script by once loaded, for {@code EVALSHA}. */
    public static final String SHA1 = sha1(TEXT);

    private GcraScript() {}

    private static String sha1(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(40);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this JDK", e);
        }
    }
}
