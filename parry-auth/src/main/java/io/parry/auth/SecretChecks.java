package io.parry.auth;

import io.parry.auth.internal.BoundedCache;
import io.parry.auth.internal.SecretHash;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Checks secrets against {@link Credentials} on an executor, never an event loop, with a bounded
 * number of checks at a time and a bounded cache of verdicts, good and bad, keyed by a digest of the
 * secret: a repeated secret costs a lookup, requests that bring the same new secret at once (a
 * browser's parallel requests after a login) share one hash, and a flood of new guesses costs at most
 * {@code maxConcurrent} hashes at a time (the rest are refused with 503 at once).
 */
final class SecretChecks {
    /** The verdict for a secret: the name it belongs to, {@code null} when none, or {@link #BUSY}. */
    record Verdict(String name, long generation, long untilNanos) {}

    static final Verdict BUSY = new Verdict(null, -1, 0);

    private final Credentials credentials;
    private final Executor executor;
    private final int maxConcurrent;
    private final long ttlNanos;
    private final AtomicInteger running = new AtomicInteger();
    private final BoundedCache<String, Verdict> verdicts;
    /** Checks running, by cache key: requests carrying a secret being checked wait for that check. */
    private final ConcurrentHashMap<String, CompletableFuture<Verdict>> checking = new ConcurrentHashMap<>();

    SecretChecks(Credentials credentials, Executor executor, int maxConcurrent, int maxCached, long ttlNanos) {
        this.credentials = credentials;
        this.executor = executor;
        this.maxConcurrent = maxConcurrent;
        this.ttlNanos = ttlNanos;
        this.verdicts = new BoundedCache<>(maxCached);
    }

    /**
     * The verdict for the secret whose cache key is given; {@code verify} finds the name the secret
     * belongs to among the hashes, on the executor. Completes at once for a cached verdict.
     */
    CompletionStage<Verdict> check(String cacheKey, Function<Map<String, SecretHash>, String> verify) {
        Verdict cached = verdicts.get(cacheKey);
        if (cached != null
                && cached.generation() == credentials.generation()
                && System.nanoTime() - cached.untilNanos() < 0) {
            return CompletableFuture.completedFuture(cached);
        }
        CompletableFuture<Verdict> shared = checking.get(cacheKey);
        if (shared != null) {
            return shared;
        }
        if (running.incrementAndGet() > maxConcurrent) {
            running.decrementAndGet();
            return CompletableFuture.completedFuture(BUSY);
        }
        CompletableFuture<Verdict> mine = new CompletableFuture<>();
        shared = checking.putIfAbsent(cacheKey, mine);
        if (shared != null) {
            running.decrementAndGet();
            return shared;
        }
        mine.whenComplete((verdict, error) -> {
            checking.remove(cacheKey, mine);
            running.decrementAndGet();
        });
        try {
            executor.execute(() -> {
                try {
                    mine.complete(verify(cacheKey, verify));
                } catch (RuntimeException e) {
                    mine.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            mine.complete(BUSY);
        }
        return mine;
    }

    int cached() {
        return verdicts.size();
    }

    private Verdict verify(String cacheKey, Function<Map<String, SecretHash>, String> verify) {
        credentials.reloadIfChanged();
        long generation = credentials.generation();
        Verdict verdict = new Verdict(verify.apply(credentials.hashes()), generation, System.nanoTime() + ttlNanos);
        verdicts.put(cacheKey, verdict);
        return verdict;
    }
}
