package io.parry.client.internal;

import io.netty.buffer.ByteBuf;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.transport.internal.ByteBufSubscriber;
import io.parry.transport.internal.InboundBody;
import io.parry.transport.internal.RawBody;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body as the caller sees it: the connection's {@link InboundBody}, zero-copy for
 * framework readers as a {@link RawBody}, plus one signal the inbound body does not give: a reader
 * that cancels its subscription before the end makes the call close its connection, because the
 * rest of the body will never be read.
 */
final class ResponseBody implements HttpBody, RawBody {
    private final InboundBody body;
    private final ClientCall call;

    ResponseBody(InboundBody body, ClientCall call) {
        this.body = body;
        this.call = call;
    }

    @Override
    public long contentLength() {
        return body.contentLength();
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
                subscriber.onSubscribe(new Watched(subscription));
            }

            @Override
            public void onNext(HttpData item) {
                subscriber.onNext(item);
            }

            @Override
            public void onError(Throwable cause) {
                subscriber.onError(cause);
            }

            @Override
            public void onComplete() {
                subscriber.onComplete();
            }
        });
    }

    @Override
    public void subscribeRaw(ByteBufSubscriber subscriber) {
        body.subscribeRaw(new ByteBufSubscriber() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscriber.onSubscribe(new Watched(subscription));
            }

            @Override
            public void onNext(ByteBuf chunk) {
                subscriber.onNext(chunk);
            }

            @Override
            public void onComplete(HttpHeaders trailers) {
                subscriber.onComplete(trailers);
            }

            @Override
            public void onError(Throwable cause) {
                subscriber.onError(cause);
            }
        });
    }

    @Override
    public String toString() {
        return "ResponseBody(" + call + ")";
    }

    private final class Watched implements Flow.Subscription {
        private final Flow.Subscription subscription;

        Watched(Flow.Subscription subscription) {
            this.subscription = subscription;
        }

        @Override
        public void request(long n) {
            subscription.request(n);
        }

        @Override
        public void cancel() {
            subscription.cancel();
            call.bodyCancelled();
        }
    }
}
