package io.parry.transport.spi;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import java.util.concurrent.Flow;

/** Reads any body as buffers: raw bodies hand theirs over, others are wrapped without a copy. */
public final class BodySources {
    private BodySources() {}

    /** Subscribes to the body for buffers. Signals may come from any thread. */
    public static void subscribe(HttpBody body, ByteBufSubscriber subscriber) {
        if (body instanceof RawBody) {
            ((RawBody) body).subscribeRaw(subscriber);
        } else {
            body.subscribe(new Wrapping(body, subscriber));
        }
    }

    private static final class Wrapping implements Flow.Subscriber<HttpData> {
        private final HttpBody body;
        private final ByteBufSubscriber subscriber;

        Wrapping(HttpBody body, ByteBufSubscriber subscriber) {
            this.body = body;
            this.subscriber = subscriber;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscriber.onSubscribe(subscription);
        }

        @Override
        public void onNext(HttpData item) {
            subscriber.onNext(DataBuffers.wrap(item));
        }

        @Override
        public void onError(Throwable throwable) {
            subscriber.onError(throwable);
        }

        @Override
        public void onComplete() {
            body.trailers().whenComplete((trailers, failure) -> {
                if (failure != null) {
                    subscriber.onError(failure);
                } else {
                    subscriber.onComplete(trailers == null ? HttpHeaders.empty() : trailers);
                }
            });
        }
    }
}
