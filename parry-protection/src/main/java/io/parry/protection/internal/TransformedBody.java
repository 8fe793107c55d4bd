package io.parry.protection.internal;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.spi.Subscriptions;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * A body read through a subscriber that rewrites its chunks on the way (compressing, inflating): its
 * length is unknown, its trailers are the source's, and it can be subscribed once.
 */
final class TransformedBody implements HttpBody {
    private final HttpBody source;
    private final Function<Flow.Subscriber<? super HttpData>, Flow.Subscriber<HttpData>> transformer;
    private final AtomicBoolean subscribed = new AtomicBoolean();

    /**
     * @param transformer makes, for the downstream subscriber, the subscriber that reads the source
     */
    TransformedBody(
            HttpBody source, Function<Flow.Subscriber<? super HttpData>, Flow.Subscriber<HttpData>> transformer) {
        this.source = source;
        this.transformer = transformer;
    }

    @Override
    public long contentLength() {
        return -1;
    }

    @Override
    public CompletionStage<HttpHeaders> trailers() {
        return source.trailers();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        if (subscribed.compareAndSet(false, true)) {
            source.subscribe(transformer.apply(subscriber));
        } else {
            Subscriptions.reject(subscriber, new IllegalStateException("a body can be subscribed once"));
        }
    }
}
