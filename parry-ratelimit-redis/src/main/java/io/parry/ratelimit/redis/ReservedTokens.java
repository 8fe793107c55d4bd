package io.parry.ratelimit.redis;

import io.parry.ratelimit.RateLimitDecision;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.concurrent.CompletableFuture;

/**
 * The tokens one event loop of a batching limiter reserved from Redis, per key, and the requests of that
 * loop waiting for a reservation under way. While a key's tokens last, a request takes one here: no
 * Redis command, no timer, no task. While one reservation is under way, further requests for its key
 * wait for it instead of asking Redis too. Used only by its loop's thread, so nothing here is shared.
 *
 * <p>Dropping tokens (at expiry, or all keys at once when too many hold some) only leaves part of the
 * shared quota unused, never exceeds it.
 */
final class ReservedTokens {
    private static final int MAX_KEYS = 10_000;

    private final HashMap<String, Bucket> buckets = new HashMap<>();

    /** The key's bucket on this loop, made on its first request. */
    Bucket bucket(String key) {
        Bucket bucket = buckets.get(key);
        if (bucket == null) {
            if (buckets.size() >= MAX_KEYS) {
                // A reservation under way keeps its bucket and answers its waiters all the same.
                buckets.clear();
            }
            bucket = new Bucket();
            buckets.put(key, bucket);
        }
        return bucket;
    }

    /** One key's reserved tokens and the requests waiting for more. */
    static final class Bucket {
        private long tokens;
        private long remaining;
        private long resetNanos;
        private long expiresAt;
        private ArrayDeque<CompletableFuture<RateLimitDecision>> waiting;

        /** A reserved token as a decision, or {@code null} if none is left at {@code now}. */
        RateLimitDecision take(long now) {
            if (tokens <= 0 || now - expiresAt >= 0) {
                return null;
            }
            tokens--;
            return new RateLimitDecision(true, remaining + tokens, 0, resetNanos);
        }

        /** Queues a request for the next reservation; whether it is the first, so that one must be asked for. */
        boolean await(CompletableFuture<RateLimitDecision> decision) {
            boolean first = waiting == null;
            if (first) {
                waiting = new ArrayDeque<>();
            }
            waiting.add(decision);
            return first;
        }

        /**
         * Keeps the tokens Redis granted until {@code expiresAt} and hands them to the waiting requests in
         * their order; whether requests are still waiting, so that more must be asked for.
         */
        boolean granted(long granted, long remaining, long resetNanos, long expiresAt) {
            this.tokens = granted;
            this.remaining = remaining;
            this.resetNanos = resetNanos;
            this.expiresAt = expiresAt;
            while (waiting != null && tokens > 0) {
                CompletableFuture<RateLimitDecision> next = waiting.poll();
                if (next == null) {
                    waiting = null;
                } else {
                    tokens--;
                    next.complete(new RateLimitDecision(true, remaining + tokens, 0, resetNanos));
                }
            }
            if (waiting != null && waiting.isEmpty()) {
                waiting = null;
            }
            return waiting != null;
        }

        /** Answers every waiting request with the same decision: Redis refused, or the policy decided. */
        void answerAll(RateLimitDecision decision, Throwable failure) {
            ArrayDeque<CompletableFuture<RateLimitDecision>> answered = waiting;
            waiting = null;
            tokens = 0;
            if (answered == null) {
                return;
            }
            for (CompletableFuture<RateLimitDecision> next : answered) {
                if (failure != null) {
                    next.completeExceptionally(failure);
                } else {
                    next.complete(decision);
                }
            }
        }
    }
}
