package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.parry.http.HttpHeaders;
import io.parry.transport.spi.ByteBufSubscriber;
import java.util.concurrent.Flow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls a streamed response body onto one HTTP/2 stream: a chunk at a time while the stream may
 * write (its window and the channel's writability, as Netty's remote flow controller tells), so a
 * slow client holds at most a window's worth queued. Trailers leave as a last header block.
 */
final class Http2BodyWriter implements ByteBufSubscriber {
    private static final Logger log = LoggerFactory.getLogger(Http2BodyWriter.class);

    private final Http2StreamFraming framing;
    private final Exchange exchange;
    private final long expectedLength;
    private Flow.Subscription subscription;
    private boolean requested;
    private boolean done;
    private long written;

    Http2BodyWriter(Http2StreamFraming framing, Exchange exchange, long expectedLength) {
        this.framing = framing;
        this.exchange = exchange;
        this.expectedLength = expectedLength;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        // Directly when on the loop, as a body received or made there is: no task per response.
        if (framing.executor().inEventLoop()) {
            subscribed(subscription);
        } else {
            framing.executor().execute(() -> subscribed(subscription));
        }
    }

    private void subscribed(Flow.Subscription subscription) {
        this.subscription = subscription;
        if (done) {
            subscription.cancel();
        } else {
            requestMore();
        }
    }

    void requestMore() {
        if (!done && subscription != null && !requested && framing.isWritable()) {
            requested = true;
            subscription.request(1);
        }
    }

    @Override
    public void onNext(ByteBuf chunk) {
        if (framing.executor().inEventLoop()) {
            writeChunk(chunk);
        } else {
            framing.executor().execute(() -> writeChunk(chunk));
        }
    }

    private void writeChunk(ByteBuf chunk) {
        requested = false;
        if (done) {
            chunk.release();
            return;
        }
        written += chunk.readableBytes();
        if (expectedLength >= 0 && written > expectedLength) {
            chunk.release();
            fail(new IllegalStateException("body longer than its declared " + expectedLength + " bytes"));
            return;
        }
        exchange.bodyBytesSent(written);
        framing.writeData(chunk);
        requestMore();
    }

    @Override
    public void onComplete(HttpHeaders trailers) {
        // Directly when on the loop, as a body received or made there is: no task per response.
        if (framing.executor().inEventLoop()) {
            completed(trailers);
        } else {
            framing.executor().execute(() -> completed(trailers));
        }
    }

    private void completed(HttpHeaders trailers) {
        if (done) {
            return;
        }
        if (expectedLength >= 0 && written != expectedLength) {
            fail(new IllegalStateException("body of " + written + " bytes, declared " + expectedLength));
            return;
        }
        done = true;
        if (trailers.isEmpty()) {
            framing.writeLastData(Unpooled.EMPTY_BUFFER);
        } else {
            framing.writeLastHeaders(Http2ResponseHeaders.trailers(trailers));
        }
    }

    @Override
    public void onError(Throwable cause) {
        onLoop(() -> fail(cause));
    }

    private void fail(Throwable cause) {
        if (done) {
            return;
        }
        log.debug("Response body of {} failed after its headers were sent; resetting the stream", exchange, cause);
        cancel();
        framing.responseFailed();
    }

    void cancel() {
        if (!done) {
            done = true;
            if (subscription != null) {
                subscription.cancel();
            }
        }
    }

    private void onLoop(Runnable task) {
        if (framing.executor().inEventLoop()) {
            task.run();
        } else {
            framing.executor().execute(task);
        }
    }
}
