package io.parry.transport.spi;

import io.netty.buffer.ByteBuf;
import io.parry.http.HttpHeaders;
import java.util.concurrent.Flow;

/**
 * Receives a body as Netty buffers, for the framework's own consumers (response writer, proxy) that
 * forward bytes without copying them. Each buffer passed to {@link #onNext} is owned by the
 * subscriber, which must release it or pass it on.
 */
public interface ByteBufSubscriber {
    /** Called once, first, with the subscription that requests buffers. */
    void onSubscribe(Flow.Subscription subscription);

    /** One chunk; the subscriber now owns it. */
    void onNext(ByteBuf chunk);

    /** The body ended, with these trailer fields (empty when none). */
    void onComplete(HttpHeaders trailers);

    /** The body failed; no further signal follows. */
    void onError(Throwable cause);
}
