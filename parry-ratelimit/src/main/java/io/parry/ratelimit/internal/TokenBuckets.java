package io.parry.ratelimit.internal;

import io.parry.ratelimit.RateLimit;
import io.parry.ratelimit.RateLimitDecision;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Token buckets by key, as GCRA keeps them: one theoretical arrival time per key, the moment the bucket
 * would be full again, moved forward by one interval per token with a compare-and-set. No lock on the
 * path of a request (a new key's insertion is the map's own), and a bucket costs one map entry.
 *
 * <p>At most {@code maxKeys} buckets are kept, give or take the insertions racing a sweep: when the map
 * grows past that, the thread that saw it sweeps. Full buckets go first (forgetting them loses nothing:
 * a new bucket is full), then, if the flood of keys is faster than buckets refill, the buckets that owe
 * least until a quarter of the room is free again, so the cost of a sweep is shared by that many
 * insertions. A key whose bucket was dropped while not full gets a full one: a flood of new keys can
 * cost the least indebted keys their debt, never memory.
 */
public final class TokenBuckets {
    /** The arrival time of a bucket taken out of the map; a request that meets it looks the key up again. */
    private static final long EVICTED = Long.MIN_VALUE;

    private final ConcurrentHashMap<String, AtomicLong> buckets = new ConcurrentHashMap<>();
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private final long interval;
    private final long capacity;
    private final int maxKeys;

    public TokenBuckets(RateLimit limit, int maxKeys) {
        this.interval = limit.intervalNanos();
        this.capacity = limit.capacityNanos();
        this.maxKeys = maxKeys;
    }

    /** Takes a token from the key's bucket at {@code now} (a {@link System#nanoTime()} reading). */
    public RateLimitDecision acquire(String key, long now) {
        while (true) {
            AtomicLong bucket = buckets.get(key);
            if (bucket == null) {
                bucket = insert(key, now);
            }
            long tat = bucket.get();
            if (tat == EVICTED) {
                buckets.remove(key, bucket);
                continue;
            }
            long start = tat - now < 0 ? now : tat;
            long wait = start + interval - now;
            if (wait > capacity) {
                return new RateLimitDecision(false, 0, wait - capacity, start - now);
            }
            if (bucket.compareAndSet(tat, start + interval)) {
                return new RateLimitDecision(true, (capacity - wait) / interval, 0, wait);
            }
        }
    }

    /**
     * How long until the key's bucket has a token, without taking one: 0 when it has one now. Adds no
     * bucket, so asking about a flood of new keys costs no memory.
     */
    public long waitNanos(String key, long now) {
        AtomicLong bucket = buckets.get(key);
        if (bucket == null) {
            return 0;
        }
        long tat = bucket.get();
        if (tat == EVICTED) {
            return 0;
        }
        long start = tat - now < 0 ? now : tat;
        long wait = start + interval - now;
        return wait > capacity ? wait - capacity : 0;
    }

    /** Buckets held now. */
    public int size() {
        return buckets.size();
    }

    private AtomicLong insert(String key, long now) {
        AtomicLong fresh = new AtomicLong(now);
        AtomicLong existing = buckets.putIfAbsent(key, fresh);
        if (existing != null) {
            return existing;
        }
        if (buckets.size() > maxKeys && sweeping.compareAndSet(false, true)) {
            try {
                sweep(now);
            } finally {
                sweeping.set(false);
            }
        }
        return fresh;
    }

    /**
     * Forgets full buckets, then, while the map is still past three quarters of its room, the least
     * indebted ones first: those that owe one interval, then two, four... Forgetting a bucket forgives
     * its debt, so the flood of keys each used once (one interval owed) that a client rotating header
     * values or addresses makes goes before the buckets of clients that used their burst.
     */
    private void sweep(long now) {
        int target = maxKeys - maxKeys / 4;
        long forgiven = 0;
        while (true) {
            forget(now, forgiven, forgiven == 0 ? 0 : target);
            if (buckets.size() <= target || forgiven >= capacity) {
                return;
            }
            forgiven = forgiven == 0 ? interval : forgiven > capacity / 2 ? capacity : forgiven * 2;
        }
    }

    /** Forgets buckets that owe at most {@code debt} nanoseconds, until the map holds {@code target}. */
    private void forget(long now, long debt, int target) {
        for (Iterator<Map.Entry<String, AtomicLong>> it = buckets.entrySet().iterator();
                it.hasNext() && buckets.size() > target; ) {
            AtomicLong bucket = it.next().getValue();
            long tat = bucket.get();
            if (tat != EVICTED && tat - now <= debt && bucket.compareAndSet(tat, EVICTED)) {
                it.remove();
            }
        }
    }
}
