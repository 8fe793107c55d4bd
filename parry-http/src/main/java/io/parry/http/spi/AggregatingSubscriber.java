package io.parry.http.spi;

import io.parry.http.ContentTooLargeException;
import io.parry.http.HttpData;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a body into one array, copying each chunk once, and gives up as soon as the bound is
 * passed so an oversized body costs no more than the bound.
 */
public final class AggregatingSubscriber implements Flow.Subscriber<HttpData> {
    private final long maxBytes;
    private final CompletableFuture<HttpData> result = new CompletableFuture<>();
    private Flow.Subscription subscription;
    private byte[] bytes;
    private int count;

    /** Arrays stop a little short of Integer.MAX_VALUE; a larger bound cannot be honoured in one chunk. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

    /** The bound that can be honoured for this requested bound: at most the largest array. */
    public static long limit(long maxBytes) {
        return Math.min(maxBytes, MAX_ARRAY);
    }

    public AggregatingSubscriber(long maxBytes, long contentLength) {
        this.maxBytes = limit(maxBytes);
        this.bytes = new byte[(int) Math.min(this.maxBytes, contentLength >= 0 ? contentLength : 256)];
    }

    /** A subscriber that cancels at once: for a body already known to be too large, or one nobody will read. */
    public static Flow.Subscriber<HttpData> cancelling() {
        return new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.cancel();
            }

            @Override
            public void onNext(HttpData item) {}

            @Override
            public void onError(Throwable throwable) {}

            @Override
            public void onComplete() {}
        };
    }

    /** Completes with the whole body, or fails with {@link ContentTooLargeException} or the body's failure. */
    public CompletionStage<HttpData> result() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(HttpData chunk) {
        if (result.isDone()) {
            return;
        }
        long total = (long) count + chunk.length();
        if (total > maxBytes) {
            subscription.cancel();
            bytes = null;
            result.completeExceptionally(new ContentTooLargeException(maxBytes));
            return;
        }
        if (total > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(maxBytes, Math.max(total, 2L * bytes.length)));
        }
        chunk.asByteBuffer().get(bytes, count, chunk.length());
        count = (int) total;
    }

    @Override
    public void onError(Throwable failure) {
        bytes = null;
        result.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
        if (!result.isDone()) {
            result.complete(count == 0 ? HttpData.empty() : HttpData.wrap(bytes, 0, count));
        }
    }
}
