package io.parry.http.spi;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A body of one immutable chunk. Unlike streamed bodies it may be subscribed any number of times,
 * so a response built once can be sent to many requests and a request can be replayed.
 */
public final class FixedBody implements HttpBody {
    public static final FixedBody EMPTY = new FixedBody(HttpData.empty());

    private static final CompletableFuture<HttpHeaders> NO_TRAILERS =
            CompletableFuture.completedFuture(HttpHeaders.empty());

    private final HttpData data;

    public FixedBody(HttpData data) {
        this.data = data;
    }

    /** The whole body. */
    public HttpData data() {
        return data;
    }

    @Override
    public long contentLength() {
        return data.length();
    }

    @Override
    public CompletionStage<HttpHeaders> trailers() {
        return NO_TRAILERS.minimalCompletionStage();
    }

    @Override
    public CompletionStage<HttpData> aggregate(long maxBytes) {
        return data.length() > maxBytes ? HttpBody.super.aggregate(maxBytes) : CompletableFuture.completedFuture(data);
    }

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        subscriber.onSubscribe(new OneChunk(subscriber));
    }

    private final class OneChunk implements Flow.Subscription {
        private final Flow.Subscriber<? super HttpData> subscriber;
        private boolean done;

        OneChunk(Flow.Subscriber<? super HttpData> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {
            if (done) {
                return;
            }
            done = true;
            if (n <= 0) {
                subscriber.onError(new IllegalArgumentException("n: " + n + " (expected: > 0, rule 3.9)"));
                return;
            }
            if (!data.isEmpty()) {
                subscriber.onNext(data);
            }
            subscriber.onComplete();
        }

        @Override
        public void cancel() {
            done = true;
        }
    }

    @Override
    public String toString() {
        return "FixedBody(" + data.length() + " bytes)";
    }
}
