package io.parry.proxy;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.transport.spi.BodySources;
import io.parry.transport.spi.ByteBufSubscriber;
import io.parry.transport.spi.RawBody;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A request body on its way to an upstream that remembers whether anybody began reading it: once the
 * client subscribed, part of a one-shot body may have left, and the request can no longer be retried.
 * Buffers pass through without a copy.
 */
final class SentBody implements HttpBody, RawBody {
    private final HttpBody body;
    private volatile boolean subscribed;

    SentBody(HttpBody body) {
        this.body = body;
    }

    /** Whether the body was subscribed to. */
    boolean subscribed() {
        return subscribed;
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
        subscribed = true;
        body.subscribe(subscriber);
    }

    @Override
    public void subscribeRaw(ByteBufSubscriber subscriber) {
        subscribed = true;
        BodySources.subscribe(body, subscriber);
    }
}
