package io.parry.transport.spi;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import java.util.concurrent.Flow;

/**
 * Gives an application's subscriber immutable chunks: each buffer is copied once into heap bytes
 * and released at once, so application code never holds pooled memory.
 */
final class HttpDataSubscriber implements ByteBufSubscriber {
    private final Flow.Subscriber<? super HttpData> delegate;

    HttpDataSubscriber(Flow.Subscriber<? super HttpData> delegate) {
        this.delegate = delegate;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        delegate.onSubscribe(subscription);
    }

    @Override
    public void onNext(ByteBuf chunk) {
        byte[] bytes;
        try {
            bytes = ByteBufUtil.getBytes(chunk);
        } finally {
            chunk.release();
        }
        delegate.onNext(HttpData.wrap(bytes));
    }

    @Override
    public void onComplete(HttpHeaders trailers) {
        delegate.onComplete();
    }

    @Override
    public void onError(Throwable cause) {
        delegate.onError(cause);
    }
}
