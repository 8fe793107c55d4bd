package io.parry.client;

import io.parry.http.HttpData;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/** Takes one chunk, then cancels. */
final class CancelAfterFirstChunk implements Flow.Subscriber<HttpData> {
    private final CompletableFuture<String> firstChunk;
    private Flow.Subscription subscription;

    CancelAfterFirstChunk(CompletableFuture<String> firstChunk) {
        this.firstChunk = firstChunk;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(1);
    }

    @Override
    public void onNext(HttpData chunk) {
        subscription.cancel();
        firstChunk.complete(chunk.toStringUtf8());
    }

    @Override
    public void onError(Throwable failure) {
        firstChunk.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
        firstChunk.complete("");
    }
}
