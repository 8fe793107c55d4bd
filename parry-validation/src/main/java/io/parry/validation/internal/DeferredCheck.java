package io.parry.validation.internal;

import io.parry.http.Problem.FieldError;
import io.parry.json.InputCheck;
import jakarta.validation.Validator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The check of one type asked for while the validator is still being built: {@link #prepare} reads
 * the type's constraints on the thread that built it; an endpoint waits for {@link #ready} before
 * its first check, and a check asked for earlier anyway reads them itself.
 */
public final class DeferredCheck<T> implements InputCheck<T> {
    private final CompletableFuture<Validator> validator;
    private final Class<T> type;
    private final CompletionStage<Void> ready;
    private volatile Boolean constrained;

    public DeferredCheck(CompletableFuture<Validator> validator, Class<T> type) {
        this.validator = validator;
        this.type = type;
        this.ready = validator.thenAccept(this::prepare);
    }

    @Override
    public CompletionStage<Void> ready() {
        return ready;
    }

    /** Reads the type's constraints, so that the first request does not. */
    public void prepare(Validator ready) {
        constrained = ready.getConstraintsForClass(type).isBeanConstrained();
    }

    @Override
    public List<FieldError> violations(T input) {
        Validator ready = validator.join();
        Boolean known = constrained;
        if (known == null) {
            prepare(ready);
            known = constrained;
        }
        return known ? FieldErrors.of(ready.validate(input)) : List.of();
    }
}
