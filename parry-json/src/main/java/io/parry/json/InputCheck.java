package io.parry.json;

import io.parry.http.Problem;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Checks decoded inputs of one type. Prepared once per endpoint by an {@link InputValidator}, then
 * called for every request on the thread that decoded the input (the event loop), so it must not
 * block.
 *
 * @param <T> the input type
 */
@FunctionalInterface
public interface InputCheck<T> {
    /** The fields at fault in this input, in a stable order; empty when the input is valid. */
    List<Problem.FieldError> violations(T input);

    /**
     * Completes when {@link #violations} can answer without waiting: at once for most checks; later
     * for one still being prepared (a validator built in the background), so that an endpoint waits
     * for it without holding its thread. Fails when the check cannot be prepared.
     */
    default CompletionStage<Void> ready() {
        return CompletableFuture.completedStage(null);
    }
}
