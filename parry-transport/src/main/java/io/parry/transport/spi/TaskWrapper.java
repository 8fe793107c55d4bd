package io.parry.transport.spi;

import java.util.concurrent.Callable;

/** Wraps tasks handed to an executor, so per-request context travels with them. */
public interface TaskWrapper {
    /** The task to run in place of {@code task}. */
    Runnable wrap(Runnable task);

    /** The task to run in place of {@code task}. */
    <V> Callable<V> wrap(Callable<V> task);
}
