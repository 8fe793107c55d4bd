package io.parry.auth.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that check slow password hashes when a filter is given no executor of its own: one
 * per core, daemon, with a bounded queue, so hashing never runs on an event loop and never grows
 * without bound.
 */
public final class HashingThreads {
    private static final ExecutorService SHARED = create();

    private HashingThreads() {}

    public static ExecutorService shared() {
        return SHARED;
    }

    private static ExecutorService create() {
        int threads = Runtime.getRuntime().availableProcessors();
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
