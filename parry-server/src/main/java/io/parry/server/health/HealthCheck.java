package io.parry.server.health;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Tells whether one thing the application depends on is healthy. {@link Health} runs it with a
 * timeout; a check that fails, times out or returns {@code null} counts as down.
 *
 * <p>{@link #check()} is called on the thread that asked for the report, often an event loop, so it
 * must not block: start the work and return a stage, or wrap a blocking probe with
 * {@link #blocking(Callable, Executor)}.
 *
 * <pre>{@code
 * HealthCheck db = HealthCheck.blocking(() -> dataSource.isValid(1) ? HealthStatus.up() : HealthStatus.down("invalid"), pool);
 * }</pre>
 */
@FunctionalInterface
public interface HealthCheck {

    /** Starts the check; the stage completes with its status. Must not block. */
    CompletionStage<HealthStatus> check();

    /**
     * A check that runs a blocking probe on the executor, such as a database ping. A probe that throws
     * counts as down, with the exception as the detail.
     */
    static HealthCheck blocking(Callable<HealthStatus> probe, Executor executor) {
        requireNonNull(probe, "probe");
        requireNonNull(executor, "executor");
        return () -> {
            CompletableFuture<HealthStatus> status = new CompletableFuture<>();
            executor.execute(() -> {
                try {
                    status.complete(probe.call());
                } catch (Throwable t) {
                    status.completeExceptionally(t);
                }
            });
            return status;
        };
    }
}
