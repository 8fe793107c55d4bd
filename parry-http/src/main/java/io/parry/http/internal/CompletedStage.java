package io.parry.http.internal;

import java.util.concurrent.CompletableFuture;

/**
 * A future completed with a value when made and never changed after, so one instance can be handed to
 * any number of callers on any threads: completing or cancelling a completed future does nothing, and
 * the obtrude methods, which alone could change it, refuse. Stages made from it are plain futures.
 */
public final class CompletedStage<T> extends CompletableFuture<T> {
    public CompletedStage(T value) {
        super.complete(value);
    }

    @Override
    public void obtrudeValue(T value) {
        throw new UnsupportedOperationException("a shared completed stage cannot change");
    }

    @Override
    public void obtrudeException(Throwable ex) {
        throw new UnsupportedOperationException("a shared completed stage cannot change");
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
