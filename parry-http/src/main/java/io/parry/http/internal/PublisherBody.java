package io.parry.http.internal;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.spi.Subscriptions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/** A body streamed from an application's publisher, consumable once. */
public final class PublisherBody implements HttpBody {
    private final Flow.Publisher<HttpData> chunks;
    private final long contentLength;
    private final CompletionStage<HttpHeaders> trailers;
    private final AtomicBoolean subscribed = new AtomicBoolean();

    public PublisherBody(Flow.Publisher<HttpData> chunks, long contentLength, CompletionStage<HttpHeaders> trailers) {
        this.chunks = chunks;
        this.contentLength = contentLength;
        this.trailers = trailers != null ? trailers : CompletableFuture.completedFuture(HttpHeaders.empty());
    }

    @Override
    public long contentLength() {
        return contentLength;
    }

    @Override
    public CompletionStage<HttpHeaders> trailers() {
        return trailers;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        if (subscribed.compareAndSet(false, true)) {
            chunks.subscribe(subscriber);
        } else {
            Subscriptions.reject(subscriber, new IllegalStateException("a body can be subscribed once"));
        }
    }
}
