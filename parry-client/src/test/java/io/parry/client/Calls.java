package io.parry.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** Waits for calls in tests, always with a bound, so a hung call fails its test instead of stalling it. */
final class Calls {
    static final Duration WAIT = Duration.ofSeconds(10);

    private Calls() {}

    /** The stage's value; a failure or a timeout fails the test. */
    static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("the stage failed", e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("the stage did not complete", e);
        }
    }

    /** Why the stage failed; success or a timeout fails the test. */
    static Throwable failure(CompletionStage<?> stage) {
        try {
            Object value = stage.toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("expected a failure, got " + value);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            return cause instanceof CompletionException && cause.getCause() != null ? cause.getCause() : cause;
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("the stage did not complete", e);
        }
    }

    /** The whole body as UTF-8 text. */
    static String text(HttpResponse response) {
        return await(response.body().aggregate(64L << 20)).toStringUtf8();
    }

    /**
     * Waits until the condition holds, for state that changes on an event loop after an event the
     * test cannot observe (a cancellation handled there, say). Polls every few milliseconds.
     */
    static void eventually(Supplier<Boolean> condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.get()) {
            assertThat(System.nanoTime() - deadline).as("condition still false").isNegative();
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
