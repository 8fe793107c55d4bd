package io.parry.proxy;

import io.netty.buffer.ByteBuf;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.transport.spi.BodySources;
import io.parry.transport.spi.ByteBufSubscriber;
import io.parry.transport.spi.RawBody;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A response body on its way downstream that reports once how it ended: completed, failed or
 * cancelled. The proxy counts a request as in flight, in its bulkhead and its endpoint's load, until
 * then. Buffers pass through without a copy.
 */
final class ObservedBody implements HttpBody, RawBody {
    /** Told once how the body ended. */
    interface EndListener {
        void ended(Throwable failure);
    }

    /** The downstream stopped reading: the response was not delivered in full. */
    static final Throwable CANCELLED = new CancellationException("response body cancelled") {
        private static final long serialVersionUID = 1L;

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    };

    private final HttpBody body;
    private final long contentLength;
    private final EndListener listener;
    private final AtomicBoolean ended = new AtomicBoolean();

    ObservedBody(HttpBody body, long contentLength, EndListener listener) {
        this.body = body;
        this.contentLength = contentLength;
        this.listener = listener;
    }

    @Override
    public long contentLength() {
        return contentLength;
    }

    @Override
    public CompletionStage<HttpHeaders> trailers() {
        return body.trailers();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        body.subscribe(new Flow.Subscriber<HttpData>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscriber.onSubscribe(observed(subscription));
            }

            @Override
            public void onNext(HttpData item) {
                subscriber.onNext(item);
            }

            @Override
            public void onError(Throwable failure) {
                end(failure);
                subscriber.onError(failure);
            }

            @Override
            public void onComplete() {
                end(null);
                subscriber.onComplete();
            }
        });
    }

    @Override
    public void subscribeRaw(ByteBufSubscriber subscriber) {
        BodySources.subscribe(body, new ByteBufSubscriber() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscriber.onSubscribe(observed(subscription));
            }

            @Override
            public void onNext(ByteBuf chunk) {
                subscriber.onNext(chunk);
            }

            @Override
            public void onComplete(HttpHeaders trailers) {
                end(null);
                subscriber.onComplete(trailers);
            }

            @Override
            public void onError(Throwable failure) {
                end(failure);
                subscriber.onError(failure);
            }
        });
    }

    /** A body taken whole has ended as far as the proxy is concerned: it is the writer's now. */
    @Override
    public ByteBuf takeReceived() {
        ByteBuf whole = body instanceof RawBody ? ((RawBody) body).takeReceived() : null;
        if (whole != null) {
            try {
                end(null);
            } catch (RuntimeException e) {
                whole.release();
                throw e;
            }
        }
        return whole;
    }

    private Flow.Subscription observed(Flow.Subscription subscription) {
        return new Flow.Subscription() {
            @Override
            public void request(long n) {
                subscription.request(n);
            }

            @Override
            public void cancel() {
                end(CANCELLED);
                subscription.cancel();
            }
        };
    }

    private void end(Throwable failure) {
        if (ended.compareAndSet(false, true)) {
            listener.ended(failure);
        }
    }
}
