package io.parry.auth.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that check slow password hashes when a filter is given no executor of its own: one
 * per two cores (at least one), daemon, with a bounded queue, so hashing never runs on an event loop,
 * never grows without bound, and a flood of new guesses (each a bcrypt or Argon2 hash) leaves half the
 * cores to the event loops.
 */
public final class HashingThreads {
    private static final ExecutorService SHARED = create();

    private HashingThreads() {}

    public static ExecutorService shared() {
        return SHARED;
    }

    /** How many threads the shared pool has. */
    public static int threads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    private static ExecutorService create() {
        int threads = threads();
        AtomicInteger number = new AtomicInteger();
        ThreadPoolExecutor executor =
                new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(256), task -> {
                    Thread thread = new Thread(task, "parry-auth-hash-" + number.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }
}
