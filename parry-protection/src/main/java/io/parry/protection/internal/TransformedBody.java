package io.parry.protection.internal;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.spi.Subscriptions;
import io.parry.protection.ContentCoding;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A body read through a {@link ContentCoding.Transform} (compressing, inflating), made when it is
 * subscribed: its length is unknown, its trailers are the source's, and it can be subscribed once.
 */
public final class TransformedBody implements HttpBody {
    private final HttpBody source;
    private final Supplier<ContentCoding.Transform> transform;
    private final AtomicBoolean subscribed = new AtomicBoolean();

    private TransformedBody(HttpBody source, Supplier<ContentCoding.Transform> transform) {
        this.source = source;
        this.transform = transform;
    }

    /** The source compressed with this coding as it is read. */
    public static HttpBody encoded(HttpBody source, ContentCoding coding) {
        return new TransformedBody(source, coding::encoder);
    }

    /** The source decoded from this coding as it is read, within {@code maxSize} decoded bytes. */
    public static HttpBody decoded(HttpBody source, ContentCoding coding, long maxSize) {
        return new TransformedBody(source, () -> coding.decoder(maxSize));
    }

    /** The source as it is, its length hidden: the head of a response whose body would be coded. */
    public static HttpBody ofUnknownLength(HttpBody source) {
        return new TransformedBody(source, null);
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
        if (!subscribed.compareAndSet(false, true)) {
            Subscriptions.reject(subscriber, new IllegalStateException("a body can be subscribed once"));
        } else if (transform == null) {
            source.subscribe(subscriber);
        } else {
            source.subscribe(new TransformingSubscriber(subscriber, transform.get()));
        }
    }
}
