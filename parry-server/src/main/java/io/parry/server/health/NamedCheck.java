package io.parry.server.health;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** A registered check with its name and timeout; runs it so that every way it can go wrong is a status. */
final class NamedCheck {
    private final String name;
    private final HealthCheck check;
    private final Duration timeout;
    private final HealthStatus timedOut;

    NamedCheck(String name, HealthCheck check, Duration timeout) {
        this.name = name;
        this.check = check;
        this.timeout = timeout;
        this.timedOut = HealthStatus.down("timed out after " + timeout.toMillis() + " ms");
    }

    String name() {
        return name;
    }

    /**
     * Runs the check; the result completes when the check does or at its timeout (on the JDK's timer
     * thread), never exceptionally.
     */
    CompletableFuture<CheckResult> run() {
        long start = System.nanoTime();
        CompletableFuture<HealthStatus> status = new CompletableFuture<>();
        try {
            CompletionStage<HealthStatus> stage = check.check();
            if (stage == null) {
                status.complete(HealthStatus.down("the check returned no stage"));
            } else {
                stage.whenComplete((result, failure) -> status.complete(statusOf(result, failure)));
            }
        } catch (RuntimeException e) {
            status.complete(HealthStatus.down(describe(e)));
        }
        status.completeOnTimeout(timedOut, timeout.toNanos(), TimeUnit.NANOSECONDS);
        return status.thenApply(result -> new CheckResult(name, result, Duration.ofNanos(System.nanoTime() - start)));
    }

    private static HealthStatus statusOf(HealthStatus result, Throwable failure) {
        if (failure != null) {
            return HealthStatus.down(describe(failure));
        }
        return result != null ? result : HealthStatus.down("the check completed with no status");
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.toString();
    }
}
