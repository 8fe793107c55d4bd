package io.parry.client.internal;

import io.netty.buffer.ByteBuf;
import io.parry.client.ConnectionClosedException;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.spi.Subscriptions;
import io.parry.transport.spi.ByteBufSubscriber;
import io.parry.transport.spi.InboundBody;
import io.parry.transport.spi.RawBody;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;

/**
 * A response body as the caller sees it: the connection's {@link InboundBody}, zero-copy for
 * framework readers as a {@link RawBody}, plus what the inbound body does not do. A reader that
 * cancels its subscription before the end makes the call close its connection, because the rest of
 * the body will never be read. And a body read after its event loop stopped (the client closed) fails
 * like the closed connection it came from, instead of throwing at its reader.
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
        try {
            return body.trailers();
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(clientClosed(e));
        }
    }

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        try {
            Flow.Subscriber<HttpData> forward = new Flow.Subscriber<HttpData>() {
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
            };
            body.subscribe(CallerSubscriber.of(forward, call.caller));
        } catch (RejectedExecutionException e) {
            Subscriptions.reject(subscriber, clientClosed(e));
        }
    }

    @Override
    public void subscribeRaw(ByteBufSubscriber subscriber) {
        try {
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
        } catch (RejectedExecutionException e) {
            subscriber.onSubscribe(Subscriptions.NOOP);
            subscriber.onError(clientClosed(e));
        }
    }

    @Override
    public ByteBuf takeReceived() {
        return body.takeReceived();
    }

    @Override
    public String toString() {
        return "ResponseBody(" + call + ")";
    }

    private ConnectionClosedException clientClosed(RejectedExecutionException cause) {
        return new ConnectionClosedException(
                "the client was closed before the body of " + call + " was read", true, cause);
    }

    /** The reader's subscription; signals made after the loop stopped are dropped, the body having failed. */
    private final class Watched implements Flow.Subscription {
        private final Flow.Subscription subscription;

        Watched(Flow.Subscription subscription) {
            this.subscription = subscription;
        }

        @Override
        public void request(long n) {
            try {
                subscription.request(n);
            } catch (RejectedExecutionException e) {
                // The client closed: the body was failed then, and its reader told.
            }
        }

        @Override
        public void cancel() {
            try {
                subscription.cancel();
            } catch (RejectedExecutionException e) {
                return; // The client closed, and the connection with it.
            }
            call.bodyCancelled();
        }
    }
}
