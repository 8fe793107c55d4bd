package io.parry.ratelimit.redis.internal;

import io.parry.ratelimit.RateLimitDecision;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tokens a batching limiter took from Redis beyond the one it needed, per key, until they run out or
 * expire. Dropping them (at expiry, or all at once when too many keys hold some) only leaves part of the
 * shared quota unused, never exceeds it.
 */
public final class Reservations {
    private static final int MAX_KEYS = 10_000;

    private final ConcurrentHashMap<String, Reservation> byKey = new ConcurrentHashMap<>();

    /** A token reserved for the key, as a decision, or {@code null} if none is left. */
    public RateLimitDecision take(String key, long now) {
        Reservation reservation = byKey.get(key);
        if (reservation == null) {
            return null;
        }
        if (now - reservation.expiresAt >= 0) {
            byKey.remove(key, reservation);
            return null;
        }
        long left = reservation.tokens.decrementAndGet();
        if (left < 0) {
            byKey.remove(key, reservation);
            return null;
        }
        return new RateLimitDecision(true, reservation.remaining + left, 0, reservation.resetNanos);
    }

    /** Keeps {@code tokens} for the key until {@code expiresAt} (a {@link System#nanoTime()} reading). */
    public void put(String key, long tokens, long remaining, long resetNanos, long expiresAt) {
        if (byKey.size() >= MAX_KEYS) {
            byKey.clear();
        }
        byKey.put(key, new Reservation(new AtomicLong(tokens), remaining, resetNanos, expiresAt));
    }

    private record Reservation(AtomicLong tokens, long remaining, long resetNanos, long expiresAt) {}
}
