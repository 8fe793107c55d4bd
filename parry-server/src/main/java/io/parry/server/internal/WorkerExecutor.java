package io.parry.server.internal;

import io.parry.server.WorkerOptions;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs blocking handlers: a virtual thread per task (bounded by a semaphore) on JDK 21+, or a
 * bounded platform pool on JDK 17. Either way a task beyond the bound is refused at once.
 */
final class WorkerExecutor {
    private static final Logger log = LoggerFactory.getLogger(WorkerExecutor.class);

    private final ExecutorService executor;
    private final Semaphore permits;
    private final int maxConcurrent;

    private WorkerExecutor(ExecutorService executor, Semaphore permits, int maxConcurrent) {
        this.executor = executor;
        this.permits = permits;
        this.maxConcurrent = maxConcurrent;
    }

    static WorkerExecutor create(WorkerOptions options) {
        if (options.virtualThreads()) {
            ExecutorService virtual = virtualThreadExecutor();
            if (virtual != null) {
                log.debug("Blocking handlers run on virtual threads, at most {} at once", options.maxConcurrent());
                return new WorkerExecutor(virtual, new Semaphore(options.maxConcurrent()), options.maxConcurrent());
            }
        }
        log.debug("Blocking handlers run on {} platform threads", options.maxThreads());
        return new WorkerExecutor(platformPool(options), null, 0);
    }

    /**
     * Looked up once at startup rather than linked, because the code is compiled for Java 17, where
     * the method does not exist.
     */
    private static ExecutorService virtualThreadExecutor() {
        try {
            return (ExecutorService) MethodHandles.publicLookup()
                    .findStatic(
                            java.util.concurrent.Executors.class,
                            "newVirtualThreadPerTaskExecutor",
                            MethodType.methodType(ExecutorService.class))
                    .invoke();
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot create the virtual-thread executor", t);
        }
    }

    private static ExecutorService platformPool(WorkerOptions options) {
        BlockingQueue<Runnable> queue =
                options.queueSize() == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(options.queueSize());
        AtomicInteger ids = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                options.maxThreads(), options.maxThreads(), 60, TimeUnit.SECONDS, queue, task -> {
                    Thread thread = new Thread(task, "parry-worker-" + ids.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * Runs the task.
     *
     * @throws RejectedExecutionException when the bound is reached or the executor is shut down
     */
    void execute(Runnable task) {
        if (permits == null) {
            executor.execute(task);
            return;
        }
        if (!permits.tryAcquire()) {
            throw new RejectedExecutionException("every virtual-thread permit is taken");
        }
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } finally {
                    permits.release();
                }
            });
        } catch (RejectedExecutionException e) {
            permits.release();
            throw e;
        }
    }

    /** The tasks running or waiting; a snapshot for metrics. */
    int tasks() {
        if (permits != null) {
            return maxConcurrent - permits.availablePermits();
        }
        ThreadPoolExecutor pool = (ThreadPoolExecutor) executor;
        return pool.getActiveCount() + pool.getQueue().size();
    }

    boolean isVirtual() {
        return permits != null;
    }

    void shutdown(long timeoutMillis) {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
