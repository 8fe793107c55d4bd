package io.parry.auth;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/** Runs each task on a new thread named {@code test-hashing-n} and counts them. */
final class CountingExecutor implements Executor {
    private final AtomicLong tasks = new AtomicLong();
    private final Set<String> threadNames = ConcurrentHashMap.newKeySet();

    @Override
    public void execute(Runnable task) {
        long number = tasks.incrementAndGet();
        Thread thread = new Thread(
                () -> {
                    threadNames.add(Thread.currentThread().getName());
                    task.run();
                },
                "test-hashing-" + number);
        thread.start();
    }

    long tasks() {
        return tasks.get();
    }

    Set<String> threadNames() {
        return threadNames;
    }
}
